//! Places counted by client: what one client (as [`super::client_key`] counts it) may hold at
//! once of something the server has a bounded number of (live streams, answers waiting for their
//! client to read), and all clients together.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

/// The places taken, by client and in all, with their bounds.
pub(super) struct Places {
    taken: Mutex<Taken>,
    per_client: usize,
    at_once: usize,
}

#[derive(Default)]
struct Taken {
    by_client: HashMap<IpAddr, usize>,
    total: usize,
}

impl Places {
    /// At most `per_client` places for one client, and `at_once` for all together.
    pub fn new(per_client: usize, at_once: usize) -> Arc<Places> {
        Arc::new(Places { taken: Mutex::default(), per_client, at_once })
    }

    /// A place for `client`, unless it holds `per_client` already or `at_once` are taken.
    pub fn take(self: &Arc<Self>, client: IpAddr) -> Option<Place> {
        let mut taken = self.taken.lock().unwrap_or_else(PoisonError::into_inner);
        if taken.total >= self.at_once {
            return None;
        }
        // Checked before an entry is made: a share of none leaves no empty entry behind.
        if taken.by_client.get(&client).copied().unwrap_or(0) >= self.per_client {
            return None;
        }
        *taken.by_client.entry(client).or_default() += 1;
        taken.total += 1;
        Some(Place { places: self.clone(), client })
    }
}

/// A client's place, given back when dropped.
pub(super) struct Place {
    places: Arc<Places>,
    client: IpAddr,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut taken = self.places.taken.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(n) = taken.by_client.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                taken.by_client.remove(&self.client);
            }
            taken.total -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_takes_its_share_and_all_together_the_whole() {
        let places = Places::new(2, 3);
        let (a, b) = (IpAddr::from([192, 0, 2, 1]), IpAddr::from([192, 0, 2, 2]));
        let a1 = places.take(a).expect("a's first");
        let _a2 = places.take(a).expect("a's second");
        assert!(places.take(a).is_none(), "a's share is two");
        let _b1 = places.take(b).expect("b's first");
        assert!(places.take(b).is_none(), "three in all");
        drop(a1);
        assert!(places.take(b).is_some(), "a place given back is taken again");
    }

    /// A share of none refuses every client and remembers none of them.
    #[test]
    fn a_share_of_none_keeps_no_client() {
        let places = Places::new(0, 3);
        for last in 1..=100u8 {
            assert!(places.take(IpAddr::from([192, 0, 2, last])).is_none());
        }
        assert!(places.taken.lock().unwrap().by_client.is_empty());
    }
}
