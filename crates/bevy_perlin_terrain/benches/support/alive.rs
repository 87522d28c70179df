//! The chunks a bench keeps alive, shared by the `chunk`, `edit_ratios` and `biome_ratios`
//! benches: a chunk's cost depends on where its ~1 MB of buffers comes from, and meshes stay
//! alive while they are on screen.

/// Chunks kept alive (a 900 m view of 64 m chunks keeps ~600).
pub const ALIVE: usize = 32;

/// The last [`ALIVE`] results: pushing one drops the oldest.
pub struct Alive<T>(Vec<T>, usize);

impl<T> Alive<T> {
    pub fn new() -> Self {
        Self(Vec::with_capacity(ALIVE), 0)
    }

    pub fn push(&mut self, value: T) {
        if self.0.len() < ALIVE {
            self.0.push(value);
        } else {
            self.0[self.1 % ALIVE] = value;
        }
        self.1 += 1;
    }
}
