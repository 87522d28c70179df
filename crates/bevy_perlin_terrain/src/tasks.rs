//! [`TaskQueue`]: the work the plugin hands to the async compute pool, one task per key at
//! most. Chunk meshes, scatter placements and colliders each decide what they want (their own
//! rules, their own keys); the queue starts the most urgent jobs within the budget, cancels what
//! is no longer wanted, and hands back what finished. A leaf module.

use bevy::platform::collections::HashMap;
use bevy::tasks::futures::check_ready;
use bevy::tasks::{AsyncComputeTaskPool, Task};
use std::hash::Hash;

/// How urgent a job is: first every job that fills a hole (nothing of it on screen), then the
/// nearest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Urgency {
    /// Whether nothing shows where this job's result goes.
    pub hole: bool,
    /// Metres from the nearest viewer (or body).
    pub distance: f32,
}

impl Urgency {
    /// The order jobs start in: holes before the rest, then nearer before farther.
    fn order(&self, other: &Self) -> std::cmp::Ordering {
        other
            .hole
            .cmp(&self.hole)
            .then(self.distance.total_cmp(&other.distance))
    }
}

/// A job to start: its key, what the queue keeps beside its task (`meta`), its urgency, and
/// the work itself.
pub(crate) struct Job<K, M, F> {
    pub key: K,
    pub meta: M,
    pub urgency: Urgency,
    pub work: F,
}

/// A task running, and what was kept beside it.
struct Running<T, M> {
    task: Task<T>,
    meta: M,
}

/// At most one task per key `K` producing a `T`, with `M` kept beside each (its generation, the
/// job it runs).
pub(crate) struct TaskQueue<K, T, M> {
    running: HashMap<K, Running<T, M>>,
}

impl<K, T, M> Default for TaskQueue<K, T, M> {
    fn default() -> Self {
        Self {
            running: HashMap::default(),
        }
    }
}

impl<K: Copy + Eq + Hash, T: Send + 'static, M> TaskQueue<K, T, M> {
    /// Tasks running.
    pub fn len(&self) -> usize {
        self.running.len()
    }

    /// Whether no task runs.
    pub fn is_empty(&self) -> bool {
        self.running.is_empty()
    }

    /// What was kept beside the task of `key`, if one runs.
    pub fn get(&self, key: &K) -> Option<&M> {
        self.running.get(key).map(|r| &r.meta)
    }

    /// Cancels the task of `key` (dropping a task cancels it) and returns what was kept.
    #[cfg_attr(not(feature = "avian"), allow(dead_code))]
    pub fn cancel(&mut self, key: &K) -> Option<M> {
        self.running.remove(key).map(|r| r.meta)
    }

    /// Cancels every task for which `keep` is false.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &M) -> bool) {
        self.running.retain(|k, r| keep(k, &r.meta));
    }

    /// Cancels every task.
    pub fn clear(&mut self) {
        self.running.clear();
    }

    /// Starts `jobs` in order of urgency while fewer than `capacity` tasks run (a job whose key
    /// already has a task is skipped). Whether some had to wait for a free slot.
    pub fn start<F>(&mut self, mut jobs: Vec<Job<K, M, F>>, capacity: usize) -> bool
    where
        F: FnOnce() -> T + Send + 'static,
    {
        jobs.retain(|job| !self.running.contains_key(&job.key));
        jobs.sort_by(|a, b| a.urgency.order(&b.urgency));
        let free = capacity.saturating_sub(self.running.len());
        let waiting = jobs.len() > free;
        let pool = AsyncComputeTaskPool::get();
        for job in jobs.into_iter().take(free) {
            let work = job.work;
            let task = pool.spawn(async move { work() });
            self.running.insert(
                job.key,
                Running {
                    task,
                    meta: job.meta,
                },
            );
        }
        waiting
    }

    /// Up to `budget` finished tasks, removed from the queue, with what was kept beside each.
    pub fn finished(&mut self, budget: usize) -> Vec<(K, M, T)> {
        self.finished_within(budget, |_| 1)
    }

    /// Finished tasks, removed from the queue, with what was kept beside each, until their
    /// `cost` adds up to `budget` (at least one, however costly).
    pub fn finished_within(&mut self, budget: usize, cost: impl Fn(&T) -> usize) -> Vec<(K, M, T)> {
        let mut done = Vec::new();
        let mut spent = 0;
        for (&key, running) in self.running.iter_mut() {
            if spent >= budget {
                break;
            }
            if running.task.is_finished()
                && let Some(result) = check_ready(&mut running.task)
            {
                spent += cost(&result).max(1);
                done.push((key, result));
            }
        }
        done.into_iter()
            .filter_map(|(key, result)| {
                self.running
                    .remove(&key)
                    .map(|running| (key, running.meta, result))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::tasks::TaskPool;

    fn queue() -> TaskQueue<u32, u32, &'static str> {
        AsyncComputeTaskPool::get_or_init(TaskPool::new);
        TaskQueue::default()
    }

    fn job(key: u32, hole: bool, distance: f32) -> Job<u32, &'static str, impl FnOnce() -> u32> {
        Job {
            key,
            meta: "meta",
            urgency: Urgency { hole, distance },
            work: move || key * 10,
        }
    }

    #[test]
    fn holes_start_first_then_the_nearest_within_the_capacity() {
        let mut q = queue();
        let jobs = vec![
            job(1, false, 5.0),
            job(2, true, 50.0),
            job(3, false, 1.0),
            job(4, true, 20.0),
        ];
        assert!(q.start(jobs, 3), "one job waits");
        assert_eq!(q.len(), 3);
        for key in [4, 2, 3] {
            assert!(q.get(&key).is_some(), "{key} started");
        }
        assert!(q.get(&1).is_none(), "the farthest non-hole waits");
        // A key that runs is not started twice, and a full queue starts nothing.
        assert!(!q.start(vec![job(4, true, 0.0)], 3));
        assert_eq!(q.len(), 3);
    }

    #[test]
    fn finished_tasks_come_back_once_within_the_budget_and_cancelled_ones_never() {
        let mut q = queue();
        q.start((0..6).map(|k| job(k, false, k as f32)).collect(), 6);
        assert_eq!(q.cancel(&5), Some("meta"));
        q.retain(|&k, _| k != 4);
        let mut results = Vec::new();
        while !q.is_empty() {
            let batch = q.finished(2);
            assert!(batch.len() <= 2);
            results.extend(batch);
            std::thread::yield_now();
        }
        results.sort();
        let want: Vec<_> = (0..4).map(|k| (k, "meta", k * 10)).collect();
        assert_eq!(results, want);
    }
}
