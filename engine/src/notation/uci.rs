//! Coordinate moves (UCI style): `e2e4`, `e7e8q`, `a9a10`; castling as Fairy-Stockfish writes it
//! (king to destination in fixed arrays, king onto rook in random setups), Capatomic launches `e1^e5`
//! and missiles along `f2j2[e1,g1]` (C16); a secret bomb's detonation is its square twice, `e4e4`.

use super::{MoveError, Refusal};
use crate::rules::variant::CastlingNotation;
use crate::rules::{Move, MoveKind, Position, Role, Square};

/// The king's destination square for a castling move.
pub fn castle_king_destination(pos: &Position, m: Move) -> Square {
    let v = pos.variant();
    let side = if m.to.file() > m.from.file() { 0 } else { 1 };
    Square::new(v.castle_king_files[side], m.from.rank())
}

fn missiles_suffix(pos: &Position, m: Move) -> String {
    let ms = pos.castling_missiles(m);
    if ms.is_empty() {
        String::new()
    } else {
        format!("[{}]", ms.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(","))
    }
}

/// Writes a move in coordinate notation.
pub fn write(pos: &Position, m: Move) -> String {
    match m.kind {
        MoveKind::Normal | MoveKind::EnPassant | MoveKind::Detonate => format!("{}{}", m.from, m.to),
        MoveKind::Promotion(r) => format!("{}{}{}", m.from, m.to, r.lower_char()),
        MoveKind::Launch => format!("{}^{}", m.from, m.to),
        MoveKind::Castle { .. } => {
            let to = match pos.variant().castling_notation {
                CastlingNotation::KingToDestination => castle_king_destination(pos, m),
                CastlingNotation::KingOntoRook => m.to,
            };
            format!("{}{}{}", m.from, to, missiles_suffix(pos, m))
        }
    }
}

/// Whether the text has the shape of a coordinate move (two squares, optional promotion letter).
pub fn looks_like_coordinates(text: &str) -> bool {
    split(text).is_some()
}

struct Parsed {
    from: Square,
    to: Square,
    launch: bool,
    promo: Option<Role>,
    missiles: Option<Vec<Square>>,
}

fn take_square(s: &str) -> Option<(Square, &str)> {
    // One file letter and one or two digits; prefer two digits when they form a valid rank.
    let bytes = s.as_bytes();
    if bytes.len() >= 3
        && bytes[2].is_ascii_digit()
        && let Some(sq) = Square::parse(&s[..3])
    {
        return Some((sq, &s[3..]));
    }
    if bytes.len() >= 2
        && let Some(sq) = Square::parse(&s[..2])
    {
        return Some((sq, &s[2..]));
    }
    None
}

fn split(text: &str) -> Option<Parsed> {
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let t = t.trim_end_matches(['+', '#', '!', '?']);
    if !t.is_ascii() {
        return None;
    }
    let lower = t.to_ascii_lowercase();
    let (body, missiles) = match lower.find('[') {
        Some(i) => {
            let inner = lower[i + 1..].strip_suffix(']')?;
            let mut v = Vec::new();
            for part in inner.split(',').filter(|p| !p.is_empty()) {
                v.push(Square::parse(part)?);
            }
            (lower[..i].to_string(), Some(v))
        }
        None => (lower, None),
    };
    let (from, rest) = take_square(&body)?;
    let (launch, rest) = match rest.strip_prefix('^') {
        Some(r) => (true, r),
        None => (false, rest.strip_prefix('-').unwrap_or(rest)),
    };
    // Two-digit ranks: "a9a10" reads a9 then a10; "e1e10" likewise.
    let (to, rest) = take_square(rest)?;
    let rest = rest.strip_prefix('=').unwrap_or(rest);
    let promo = match rest {
        "" => None,
        r if r.len() == 1 => Some(Role::from_char(r.chars().next()?)?),
        _ => return None,
    };
    Some(Parsed { from, to, launch, promo, missiles })
}

/// Reads a coordinate move and finds it among the legal moves.
pub fn parse(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let p = split(text).ok_or_else(|| MoveError::syntax(pos, text))?;
    let legal = pos.legal_moves();
    let missiles_of = |m: &Move| pos.castling_missiles(*m);
    let wanted_missiles = p.missiles.clone().map(|mut v| {
        v.sort();
        v
    });
    let candidates: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| m.from == p.from)
        .filter(|m| match m.kind {
            MoveKind::Launch => p.launch && m.to == p.to,
            _ if p.launch => false,
            MoveKind::Castle { .. } => {
                p.promo.is_none()
                    && (m.to == p.to || castle_king_destination(pos, *m) == p.to)
                    && wanted_missiles.clone().unwrap_or_default() == missiles_of(m)
            }
            MoveKind::Promotion(r) => m.to == p.to && p.promo == Some(r),
            _ => m.to == p.to && p.promo.is_none() && p.missiles.is_none(),
        })
        .collect();
    // King-to-destination that is also an ordinary king move means the ordinary move.
    let ordinary: Vec<Move> = candidates.iter().copied().filter(|m| !m.is_castle()).collect();
    let chosen = if ordinary.len() == 1 { ordinary } else { candidates };
    match chosen.as_slice() {
        [m] => Ok(*m),
        [] => Err(illegal_reason(pos, text, &p)),
        many => Err(MoveError::Ambiguous {
            input: text.to_string(),
            candidates: many.iter().map(|m| write(pos, *m)).collect(),
        }),
    }
}

fn illegal_reason(pos: &Position, text: &str, p: &Parsed) -> MoveError {
    let input = text.trim().to_string();
    let legal = pos.legal_moves();
    if p.from == p.to && pos.variant().bombs {
        return MoveError::Illegal { input, reason: super::san::detonation_refusal(pos), hints: Vec::new() };
    }
    let reason = match pos.piece_at(p.from) {
        None => Refusal::NoPieceOn { square: p.from },
        Some(pc) if pc.color != pos.turn() => Refusal::NotYours { role: pc.role, square: p.from, owner: pc.color },
        Some(pc) => {
            // The piece's moves as `!moves` lists them (board order, castling and launches apart);
            // never a detonation, as hints may be read by others.
            let hints = super::san::listed_moves(pos, Some(p.from));
            // The move as the piece's pattern allows it, refused for the king's sake (a pin, a check).
            let pseudo = pos.pseudo_legal_moves().iter().copied().find(|m| {
                m.from == p.from
                    && m.to == p.to
                    && match m.kind {
                        MoveKind::Normal | MoveKind::EnPassant => p.promo.is_none() && !p.launch,
                        MoveKind::Promotion(r) => p.promo.is_none_or(|w| w == r) && !p.launch,
                        _ => false,
                    }
            });
            let promotion = legal
                .iter()
                .copied()
                .find(|m| m.from == p.from && m.to == p.to && m.promotion_role() == Some(Role::Queen))
                .or_else(|| {
                    legal.iter().copied().find(|m| m.from == p.from && m.to == p.to && m.promotion_role().is_some())
                });
            let refused_promotion = p
                .promo
                .filter(|_| pc.role == Role::Pawn && promotion.is_some())
                .and_then(|r| super::san::promotion_refusal(pos, r));
            let reason = if let Some(refusal) = refused_promotion {
                refusal
            } else if p.launch {
                super::san::launch_refusal(pos, p.from, p.to)
            } else if let (Some(m), None) = (promotion, p.promo) {
                Refusal::PromotionCoordinates { example: write(pos, m) }
            } else if let Some(m) = pseudo {
                super::san::king_refusal(pos, m, pc.role)
            } else if hints.is_empty() {
                Refusal::NoLegalMove { role: pc.role, from: p.from }
            } else if let Some(wanted) = p.missiles.as_ref().filter(|_| pc.role == Role::King) {
                let kingside = p.to.file() > p.from.file();
                let side = legal
                    .iter()
                    .any(|m| m.is_castle() && m.from == p.from && (m.to.file() > m.from.file()) == kingside);
                let mut wanted = wanted.clone();
                wanted.sort();
                wanted.dedup();
                if side {
                    Refusal::CastleMissiles { held: super::san::missiles_held(pos, kingside, &wanted) }
                } else {
                    Refusal::CastleImpossible
                }
            } else {
                Refusal::CannotGo { role: pc.role, from: p.from, to: p.to }
            };
            return MoveError::Illegal { input, reason, hints };
        }
    };
    MoveError::Illegal { input, reason, hints: Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;
    use crate::rules::variant::{CAPARANDOM, CHESS};

    #[test]
    fn chess_castling_is_king_to_destination() {
        let pos = parse_position(&CHESS, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let m = parse(&pos, "e1g1").unwrap();
        assert!(m.is_castle());
        assert_eq!(write(&pos, m), "e1g1");
        // King onto rook is accepted too.
        assert_eq!(parse(&pos, "e1h1").unwrap(), m);
    }

    #[test]
    fn random_castling_is_king_onto_rook() {
        let pos = parse_position(&CAPARANDOM, "r4k3r/10/10/10/10/10/10/R4K3R w AJaj - 0 1").unwrap();
        let m = parse(&pos, "f1j1").unwrap();
        assert!(m.is_castle());
        assert_eq!(write(&pos, m), "f1j1");
        // f1i1 is the castle's king destination, and not an ordinary move: accepted.
        assert_eq!(parse(&pos, "f1i1").unwrap(), m);
        // f1g1 is an ordinary king step.
        assert!(!parse(&pos, "f1g1").unwrap().is_castle());
    }

    #[test]
    fn syntax_and_meaning_errors() {
        let pos = Position::start(&CHESS);
        assert!(matches!(parse(&pos, "hello"), Err(MoveError::Syntax { .. })));
        assert!(matches!(parse(&pos, "e2e5"), Err(MoveError::Illegal { .. })));
        let e = parse(&pos, "e3e4").unwrap_err().to_string();
        assert!(e.contains("no piece on e3"), "{e}");
        let e = parse(&pos, "e7e5").unwrap_err().to_string();
        assert!(e.contains("belongs to black"), "{e}");
    }
}
