//! The bot's own permissions in a channel: what it needs to show a game there, and which of those
//! it lacks, named so that a server admin can fix it.

use serenity::all::Permissions;

/// What the bot needs in a chat: to talk, to show boards (embed + file) and to keep history.
pub fn needed(thread: bool) -> Permissions {
    let mut p = Permissions::VIEW_CHANNEL
        | Permissions::SEND_MESSAGES
        | Permissions::EMBED_LINKS
        | Permissions::ATTACH_FILES
        | Permissions::READ_MESSAGE_HISTORY;
    if thread {
        p |= Permissions::CREATE_PUBLIC_THREADS | Permissions::SEND_MESSAGES_IN_THREADS;
    }
    p
}

/// What the bot needs to play in a channel at all, or inside a thread, where Send Messages in
/// Threads counts instead of Send Messages. Pictures ([`for_pictures`]) are left out where they
/// are missing, never the game.
pub fn to_post(in_thread: bool) -> Permissions {
    let send = if in_thread { Permissions::SEND_MESSAGES_IN_THREADS } else { Permissions::SEND_MESSAGES };
    (needed(false) - Permissions::SEND_MESSAGES - for_pictures()) | send
}

/// What a post needs for its board picture and card (an interaction's answer always has both).
pub fn for_pictures() -> Permissions {
    Permissions::EMBED_LINKS | Permissions::ATTACH_FILES
}

/// The permissions in `needed` that `have` lacks, by name (`None` when nothing is missing).
pub fn missing(have: Permissions, needed: Permissions) -> Option<String> {
    let lacking = needed - have;
    if lacking.is_empty() {
        return None;
    }
    let names: Vec<String> = lacking.iter_names().map(|(n, _)| n.to_lowercase().replace('_', " ")).collect();
    Some(names.join(", "))
}

/// The permissions in `needed` that `have` lacks, as Discord names them in `lang` (`None` when
/// nothing is missing), for the people who read it.
pub fn missing_in(have: Permissions, needed: Permissions, lang: crate::i18n::Lang) -> Option<String> {
    let lacking = needed - have;
    (!lacking.is_empty()).then(|| names_in(lacking, lang))
}

/// Permissions by the names Discord shows in `lang` (the catalogue's `perm-…`), English where the
/// catalogue has none.
pub fn names_in(permissions: Permissions, lang: crate::i18n::Lang) -> String {
    let names: Vec<String> = permissions
        .iter_names()
        .map(|(n, _)| {
            let english = n.to_lowercase().replace('_', " ");
            let id = format!("perm-{}", english.replace(' ', "-"));
            if crate::i18n::has(lang, &id) { crate::i18n::tr(lang, &id, &[]) } else { english }
        })
        .collect();
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_what_is_missing() {
        assert_eq!(missing(Permissions::all(), needed(true)), None);
        let have = needed(false) - Permissions::ATTACH_FILES;
        assert_eq!(missing(have, needed(false)).as_deref(), Some("attach files"));
        assert_eq!(missing(have, to_post(false)), None, "a game goes on without pictures");
        assert_eq!(missing(have, for_pictures()).as_deref(), Some("attach files"));
        let tr = crate::i18n::Lang::Tr;
        assert_eq!(missing_in(have, for_pictures(), tr).as_deref(), Some("Dosya Ekle"));
        assert_eq!(names_in(for_pictures(), crate::i18n::Lang::En), "embed links, attach files");
        for (name, _) in needed(true).iter_names() {
            let id = format!("perm-{}", name.to_lowercase().replace('_', "-"));
            for lang in crate::i18n::Lang::ALL {
                assert!(crate::i18n::has(lang, &id), "{id} in {}", lang.code());
            }
        }
        assert!(missing(needed(false), needed(true)).unwrap().contains("create public threads"));
        let in_thread = needed(true) - Permissions::SEND_MESSAGES;
        assert_eq!(missing(in_thread, to_post(true)), None);
        assert_eq!(missing(in_thread, to_post(false)).as_deref(), Some("send messages"));
    }

    /// The invite link's permission integer in the README.
    #[test]
    fn invite_permissions() {
        assert_eq!(needed(true).bits(), 309_237_763_072);
    }
}
