//! A map that keeps only its latest entries: what the core and the front ends remember per event,
//! message or person (interactions already seen, reaction prompts, a bare move's notice told once)
//! without growing for as long as the process runs. No platform or runtime types: the core uses it.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;

/// At most `capacity` entries; inserting beyond it forgets the oldest first.
pub struct Recent<K, V> {
    map: HashMap<K, V>,
    order: VecDeque<K>,
    capacity: usize,
}

impl<K: Hash + Eq + Clone, V> Recent<K, V> {
    pub fn new(capacity: usize) -> Self {
        Recent { map: HashMap::new(), order: VecDeque::new(), capacity: capacity.max(1) }
    }

    /// Inserts or replaces (a replaced entry keeps its age).
    pub fn insert(&mut self, key: K, value: V) {
        if self.map.insert(key.clone(), value).is_none() {
            self.order.push_back(key);
        }
        while self.order.len() > self.capacity {
            if let Some(old) = self.order.pop_front() {
                self.map.remove(&old);
            }
        }
    }

    pub fn get(&self, key: &K) -> Option<&V> {
        self.map.get(key)
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

impl<K: Hash + Eq + Clone> Recent<K, ()> {
    /// True the first time `key` is seen among the recent ones (and remembers it).
    pub fn first_time(&mut self, key: K) -> bool {
        if self.map.contains_key(&key) {
            return false;
        }
        self.insert(key, ());
        true
    }
}

#[cfg(test)]
mod tests {
    use super::Recent;

    #[test]
    fn the_oldest_are_forgotten_beyond_the_capacity() {
        let mut r = Recent::new(2);
        r.insert(1, "a");
        r.insert(2, "b");
        r.insert(1, "a again");
        assert_eq!((r.get(&1), r.get(&2)), (Some(&"a again"), Some(&"b")));
        r.insert(3, "c");
        assert_eq!((r.get(&1), r.get(&2), r.get(&3)), (None, Some(&"b"), Some(&"c")));
        assert_eq!((r.len(), r.order.len()), (2, 2));
    }

    #[test]
    fn first_time_is_true_once_per_recent_key() {
        let mut r = Recent::new(3);
        assert!(r.first_time(7) && !r.first_time(7));
        for k in 0..3 {
            assert!(r.first_time(k));
        }
        assert!(r.first_time(7), "forgotten after three newer keys");
    }
}
