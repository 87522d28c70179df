//! The thread's caches of lattice nodes, one per kind of node (the climate's values, the
//! biomes' weights): direct-mapped, each node in the one slot its key hashes to.

/// What a [`NodeCache`] knows a node by: everything the node's value depends on.
pub(super) trait CacheKey: Copy + PartialEq {
    /// No node: a key that no node has, which marks an empty slot.
    const EMPTY: Self;

    /// The words the key's slot is hashed from (see [`cache_slot`]).
    fn words(&self) -> [u64; 3];
}

/// Recently computed nodes, direct-mapped into `SLOTS` slots (a power of two): a node's value
/// is a pure function of its key, so a hit returns exactly what computing it would. The slots
/// take their memory when first written.
pub(super) struct NodeCache<K, V, const SLOTS: usize> {
    slots: Vec<(K, V)>,
}

impl<K, V, const SLOTS: usize> NodeCache<K, V, SLOTS> {
    /// An empty cache, for a `thread_local!`.
    pub(super) const fn new() -> Self {
        Self { slots: Vec::new() }
    }
}

impl<K: CacheKey, V: Copy + Default, const SLOTS: usize> NodeCache<K, V, SLOTS> {
    /// The slot of `key`.
    pub(super) fn slot(key: &K) -> usize {
        cache_slot(key.words(), SLOTS)
    }

    /// The value kept for `key`, if its slot holds it.
    pub(super) fn get(&self, key: &K) -> Option<&V> {
        match self.slots.get(Self::slot(key)) {
            Some((at, value)) if at == key => Some(value),
            _ => None,
        }
    }

    /// The value of `key`: the one kept, or else `compute`'s, kept in its slot.
    pub(super) fn get_or_insert_with(&mut self, key: K, compute: impl FnOnce() -> V) -> V {
        self.take_memory();
        let Some(slot) = self.slots.get_mut(Self::slot(&key)) else {
            return compute();
        };
        if slot.0 != key {
            *slot = (key, compute());
        }
        slot.1
    }

    /// Keeps `value` for `key`, in place of whatever its slot held.
    pub(super) fn insert(&mut self, key: K, value: V) {
        self.take_memory();
        if let Some(slot) = self.slots.get_mut(Self::slot(&key)) {
            *slot = (key, value);
        }
    }

    /// Every slot, empty until written.
    fn take_memory(&mut self) {
        if self.slots.len() < SLOTS {
            self.slots.resize(SLOTS, (K::EMPTY, V::default()));
        }
    }

    /// Forgets every node.
    #[cfg(test)]
    pub(super) fn clear(&mut self) {
        self.slots.clear();
    }

    /// Forgets the node `key`, if its slot holds it.
    #[cfg(test)]
    pub(super) fn forget(&mut self, key: &K) {
        if let Some(slot) = self.slots.get_mut(Self::slot(key))
            && slot.0 == *key
        {
            slot.0 = K::EMPTY;
        }
    }
}

/// The slot of a key made of `words` in a direct-mapped cache of `slots` (a power of two):
/// each word mixed in by a multiplication and a shift, so that nearby nodes (whose indices
/// differ in their low bits only) spread over every slot. Combining the words' products by
/// exclusive or instead sends pairs such as (3, 91) and (5, 92) to one slot.
fn cache_slot(words: [u64; 3], slots: usize) -> usize {
    let mut h = 0u64;
    for w in words {
        h = (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        h ^= h >> 32;
    }
    (h >> (u64::BITS - slots.trailing_zeros())) as usize
}
