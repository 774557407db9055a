//! Errors as text without secrets. An interaction's token and a webhook's token are credentials
//! (whoever has one may answer as the bot for 15 minutes, or post through the webhook), and they
//! sit in the paths of the REST routes that use them; a failed request's error names its URL
//! (reqwest's "error sending request for url (…)"). Every Discord error the front end logs or
//! hands to the outbox goes through [`describe`].

/// The route segments followed by an id and then a token.
const TOKEN_ROUTES: [&str; 2] = ["/interactions/", "/webhooks/"];

/// What replaces a token.
const HIDDEN: &str = "[token]";

/// `e` as text, without interaction or webhook tokens. A request that got no answer is told by
/// reqwest's own words and their causes (serenity's say only "Error while sending HTTP request."),
/// which name the URL: "error sending request for url (…): operation timed out".
pub fn describe(e: &serenity::Error) -> String {
    let text = match e {
        serenity::Error::Http(serenity::all::HttpError::Request(r)) => {
            let mut text = r.to_string();
            let mut cause = std::error::Error::source(r);
            while let Some(c) = cause {
                text.push_str(": ");
                text.push_str(&c.to_string());
                cause = c.source();
            }
            text
        }
        _ => e.to_string(),
    };
    without_tokens(&text)
}

/// `text` with the token after `/interactions/{id}/` and `/webhooks/{id}/` replaced by
/// `[token]`; everything else as it was.
pub fn without_tokens(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let next = TOKEN_ROUTES.iter().filter_map(|route| rest.find(route).map(|at| at + route.len())).min();
        let Some(after_route) = next else {
            out.push_str(rest);
            return out;
        };
        let (head, tail) = rest.split_at(after_route);
        out.push_str(head);
        let id_len = tail.find(|c: char| !c.is_ascii_digit()).unwrap_or(tail.len());
        out.push_str(&tail[..id_len]);
        let tail = &tail[id_len..];
        let Some(token) = tail.strip_prefix('/') else {
            rest = tail;
            continue;
        };
        let token_len = token.find(|c: char| "/?#)\"'<>,;".contains(c) || c.is_whitespace()).unwrap_or(token.len());
        out.push('/');
        if token_len > 0 {
            out.push_str(HIDDEN);
        }
        rest = &token[token_len..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OmV4YW1wbGUtdG9rZW4tdGV4dA";

    #[test]
    fn interaction_and_webhook_tokens_are_hidden_and_the_rest_kept() {
        let cases = [
            (
                format!(
                    "error sending request for url (https://discord.com/api/v10/interactions/123/{TOKEN}/callback)"
                ),
                "error sending request for url (https://discord.com/api/v10/interactions/123/[token]/callback)",
            ),
            (
                format!(
                    "Discord did not answer: operation timed out for url (http://127.0.0.1:9/api/v10/webhooks/1000/{TOKEN})"
                ),
                "Discord did not answer: operation timed out for url (http://127.0.0.1:9/api/v10/webhooks/1000/[token])",
            ),
            (
                format!(
                    "PATCH /api/v10/webhooks/1000/{TOKEN}/messages/@original?wait=true and /webhooks/1000/{TOKEN} again"
                ),
                "PATCH /api/v10/webhooks/1000/[token]/messages/@original?wait=true and /webhooks/1000/[token] again",
            ),
            (
                "Unknown Channel (10003) at /api/v10/channels/11/messages".to_string(),
                "Unknown Channel (10003) at /api/v10/channels/11/messages",
            ),
            ("a trailing /interactions/ alone".to_string(), "a trailing /interactions/ alone"),
        ];
        for (text, expected) in cases {
            let shown = without_tokens(&text);
            assert_eq!(shown, expected);
            assert!(!shown.contains(TOKEN));
        }
    }

    /// A real reqwest error, as serenity wraps it, for a request to an interaction's route.
    #[tokio::test]
    async fn a_failed_requests_error_names_no_token() {
        let url = format!("http://127.0.0.1:9/api/v10/interactions/123/{TOKEN}/callback");
        let client = reqwest::Client::new();
        let error = client.post(&url).send().await.expect_err("nothing listens on port 9");
        assert!(error.to_string().contains(TOKEN), "reqwest's own text has it: {error}");
        let shown = describe(&serenity::Error::from(error));
        assert!(!shown.contains(TOKEN) && shown.contains("/interactions/123/[token]/callback"), "{shown}");
        assert!(shown.len() > "error sending request for url".len() + url.len(), "with its cause: {shown}");
    }
}
