//! The analysis desk: who has an analysis running or waiting, so that each person has one at a
//! time and the queue stays bounded; and the bot's side of an analysis job — its progress message,
//! and the result stored and announced in one unit of work once the host has run the search.
//!
//! The search itself never runs inside [`Bot::handle`] or a unit of work: the `analyse` command
//! hands back an [`AnalysisJob`] that the host runs off the async threads, position by position
//! ([`AnalysisJob::analyser`]), as it runs the AI's moves; [`Bot::run_analyses_inline`] does the
//! same in one thread for tests.

use super::io::{AnalysisJob, Reply, Response, Slot};
use super::{Bot, BotError};
use crate::ai::analysis::{Analysis, AnalysisError};
use crate::i18n::with_lang;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// Who holds a place at the desk (platform and user id), and how many places there are.
#[derive(Debug, Default)]
pub(crate) struct Desk {
    held: Mutex<HashSet<String>>,
}

/// Why the desk turned a request away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Busy {
    /// This person has an analysis running or waiting.
    You,
    /// Every place is taken.
    Full,
}

/// A place at the desk, given back when the last copy of it is dropped.
#[derive(Clone, Debug)]
pub(crate) struct Ticket(#[allow(dead_code)] Arc<Place>);

#[derive(Debug)]
struct Place {
    desk: Arc<Desk>,
    person: String,
}

impl Drop for Place {
    fn drop(&mut self) {
        if let Ok(mut held) = self.desk.held.lock() {
            held.remove(&self.person);
        }
    }
}

impl Desk {
    /// A place for `person`, if they hold none and fewer than `max` are held.
    pub(crate) fn admit(self: &Arc<Self>, person: &str, max: usize) -> Result<Ticket, Busy> {
        let mut held = self.held.lock().map_err(|_| Busy::Full)?;
        if held.contains(person) {
            return Err(Busy::You);
        }
        if held.len() >= max {
            return Err(Busy::Full);
        }
        held.insert(person.to_string());
        Ok(Ticket(Arc::new(Place { desk: self.clone(), person: person.to_string() })))
    }

    pub(crate) fn held(&self) -> usize {
        self.held.lock().map_or(0, |h| h.len())
    }
}

/// The slot of an analysis's progress message, which the result replaces.
pub(crate) fn progress_slot(game_id: i64, requester: &str) -> String {
    format!("analysis:{game_id}:{requester}")
}

impl Bot {
    /// Analyses running or waiting now.
    pub fn analyses_running(&self) -> usize {
        self.desk.held()
    }

    /// The progress message of a job: `done` of `total` positions searched. Carries the job's slot,
    /// so a front end that can edit replaces the message it sent before.
    pub fn analysis_progress_reply(&self, job: &AnalysisJob, done: usize, total: usize) -> Reply {
        let key = progress_slot(job.game_id, &job.requester.id);
        let previous = self
            .store
            .conn()
            .ok()
            .and_then(|c| crate::store::events::slot(&c, job.target.platform(), &key).ok().flatten());
        let text = crate::tl!(job.lang, "analysis-progress", id = job.game_id, done = done, total = total);
        let mut r = Reply::new(job.target.clone(), text);
        r.lang = job.lang;
        r.slot = Some(Slot { key, previous });
        r.in_reply_to.clone_from(&job.origin);
        r
    }

    /// Runs a job's search at once (blocking), calling `progress(done, total)` after each position.
    pub fn run_analysis_job(
        &self,
        job: &AnalysisJob,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Analysis, AnalysisError> {
        crate::ai::analysis::analyse(&job.game, job.nodes, progress)
    }

    /// Feeds back a job's result: the analysis stored and its replies queued, in one unit of work;
    /// a failed search is told to the requester.
    pub fn finish_analysis(&self, job: &AnalysisJob, result: Result<Analysis, AnalysisError>) -> Response {
        self.in_unit("analysis", || {
            let work = || -> Result<Response, BotError> { self.finish_analysis_now(job, &result) };
            match with_lang(job.lang, || self.all_or_nothing(work)) {
                Ok(r) => r,
                Err(e) => {
                    let lang = job.requester_lang;
                    let text = match e {
                        BotError::User(m) => m.render(lang),
                        BotError::Internal(detail) => {
                            tracing::error!(game = job.game_id, "analysis not stored: {detail}");
                            crate::tl!(lang, "analysis-failed", id = job.game_id)
                        }
                    };
                    let mut r = Reply::new(job.target.clone(), text);
                    r.lang = lang;
                    r.audience = super::Audience::Author;
                    r.in_reply_to.clone_from(&job.origin);
                    Response::one(r)
                }
            }
        })
    }

    /// Runs analysis jobs in this thread and feeds their results back (tests, scripts).
    pub fn run_analyses_inline(&self, jobs: Vec<AnalysisJob>) -> Vec<Reply> {
        let mut replies = Vec::new();
        for job in jobs {
            let result = self.run_analysis_job(&job, &mut |_, _| {});
            replies.extend(self.finish_analysis(&job, result).replies);
        }
        replies
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_place_per_person_and_a_bounded_desk() {
        let desk = Arc::new(Desk::default());
        let a = desk.admit("console:alice", 2).expect("a place");
        assert_eq!(desk.admit("console:alice", 2).err(), Some(Busy::You));
        let b = desk.admit("console:bob", 2).expect("a place");
        assert_eq!(desk.admit("console:carol", 2).err(), Some(Busy::Full));
        // A copy holds the place too; the last one dropped gives it back.
        let a2 = a.clone();
        drop(a);
        assert_eq!(desk.admit("console:alice", 3).err(), Some(Busy::You));
        drop(a2);
        drop(b);
        assert_eq!(desk.held(), 0);
        assert!(desk.admit("console:carol", 2).is_ok());
    }
}
