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
            (lower[..i].to_string(), Some(super::san::missile_list(inner)?))
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
    let wanted_missiles = p.missiles.as_deref().unwrap_or_default();
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
                    && super::san::takes_missiles(pos, *m, wanted_missiles)
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
        [] => Err(illegal_reason(pos, &legal, text, &p)),
        many => Err(MoveError::Ambiguous {
            input: text.to_string(),
            candidates: many.iter().map(|m| write(pos, *m)).collect(),
        }),
    }
}

/// The castling side a king's coordinate move that is no legal move means, if it means one: the
/// missiles named in brackets, or the king two files or more along its castling rank onto a
/// castling destination, or onto its own rook there.
fn castling_meant(pos: &Position, p: &Parsed) -> Option<bool> {
    let v = pos.variant();
    let us = pos.turn();
    let on_rank = p.from.rank() == v.castling_rank_of(us) && p.to.rank() == p.from.rank() && p.to != p.from;
    if p.launch || p.promo.is_some() || !on_rank {
        return None;
    }
    let kingside = p.to.file() > p.from.file();
    let destination =
        p.to.file() == v.castle_king_files[usize::from(!kingside)] && p.to.file().abs_diff(p.from.file()) >= 2;
    let own_rook = pos.piece_at(p.to).is_some_and(|pc| pc.color == us && pc.role == Role::Rook);
    (p.missiles.is_some() || destination || own_rook).then_some(kingside)
}

fn illegal_reason(pos: &Position, legal: &[Move], text: &str, p: &Parsed) -> MoveError {
    let input = text.trim().to_string();
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
            } else if let Some(kingside) = castling_meant(pos, p).filter(|_| pc.role == Role::King) {
                let wanted = p.missiles.as_deref().unwrap_or_default();
                return super::san::castle_refused(pos, legal, &input, kingside, wanted);
            } else if let Some(m) = pseudo {
                super::san::king_refusal(pos, m, pc.role)
            } else if pos.irradiated().contains(p.to) {
                // As SAN says it of a move to an irradiated square, whatever the piece.
                Refusal::Irradiated { square: p.to }
            } else if let Some(square) = pos.irradiated_in_the_way(p.from, p.to) {
                Refusal::IrradiatedOnTheWay { square, to: p.to }
            } else if hints.is_empty() {
                Refusal::NoLegalMove { role: pc.role, from: p.from }
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

    /// Castling is read and refused alike whichever notation names it: at every position of
    /// random Capatomic games from castling-ready setups, each side with every choice of
    /// missiles (none, one, both, a square with no missile, a missile named twice) is the same
    /// move, or the same refusal, typed as `O-O[…]` and as the king's coordinates; a missile
    /// named twice is the missile named once; and where castling with missiles is refused, the
    /// refusal names what holds them (before: `f2j2[e1,e1]` refused where `O-O[e1,e1]` was
    /// played, and castling in check by coordinates "not possible now" where SAN said "in check").
    #[test]
    fn castling_reads_alike_in_both_notations() {
        use crate::notation::{Refusal, parse_move};
        use crate::rules::variant::CAPATOMIC;
        let read = |pos: &Position, typed: &str| match parse_move(pos, typed) {
            Ok(m) => Ok(m),
            Err(MoveError::Illegal { reason, .. }) => Err(reason),
            Err(other) => panic!("{typed}: {other:?}"),
        };
        let setups = [
            "4m1m3/r4k3r/10/10/10/10/10/10/R4K3R/4M1M3 w AJaj - 0 1 e1,g1,e10,g10 -",
            "4m1m3/r4k3r/10/10/10/10/10/10/R4K3R/4M1M*2 w AJaj - 0 1 e1,g1,e10,g10 -",
            "4m1m3/r4k3r/10/10/10/5r4/10/10/R4K3R/4M1M3 w AJaj - 0 1 e1,g1,e10,g10 -",
            "4m1m3/r4k3r/10/10/10/10/10/10/R4K3R/6M3 w AJaj - 0 1 g1,e10,g10 -",
            "4m1m3/r4k2r1/10/10/10/10/10/10/R2B1K3R/4M1M3 b AJa - 0 1 e1,g1,e10,g10 +",
            "10/r4k3r/10/10/10/10/10/10/R7KR/7M1M w AJaj - 0 1 h1,j1 -",
        ];
        let (mut played, mut refused_in_check, mut seed) = (0, 0, 7u64);
        for fen in setups {
            let mut pos = parse_position(&CAPATOMIC, fen).unwrap();
            for _ in 0..12 {
                let us = pos.turn();
                let (Some(king), Some(rank)) = (pos.king(us), CAPATOMIC.missile_rank_of(us)) else { break };
                let at = |df: i32| Square::try_new(king.file() as i32 + df, rank as i32);
                let (left, right, off) = (at(-1), at(1), at(2).or(at(-2)).unwrap());
                let mut choices: Vec<Vec<Square>> = vec![vec![], vec![off]];
                for m in [left, right].into_iter().flatten() {
                    choices.push(vec![m]);
                    choices.push(vec![m, m]);
                }
                if let (Some(l), Some(r)) = (left, right) {
                    choices.push(vec![r, l]);
                }
                for kingside in [true, false] {
                    let dest = Square::new(CAPATOMIC.castle_king_files[usize::from(!kingside)], king.rank());
                    for wanted in &choices {
                        let list = wanted.iter().map(Square::to_string).collect::<Vec<_>>().join(",");
                        let brackets = if wanted.is_empty() { String::new() } else { format!("[{list}]") };
                        let san = format!("{}{brackets}", if kingside { "O-O" } else { "O-O-O" });
                        let by_san = read(&pos, &san);
                        if king.rank() == CAPATOMIC.castling_rank_of(us) && dest.file().abs_diff(king.file()) >= 2 {
                            let coordinates = format!("{king}{dest}{brackets}");
                            assert_eq!(
                                read(&pos, &coordinates),
                                by_san,
                                "{coordinates} and {san} in {}",
                                crate::notation::fen::write(&pos)
                            );
                        }
                        let mut once = wanted.clone();
                        once.dedup();
                        let once_list = once.iter().map(Square::to_string).collect::<Vec<_>>().join(",");
                        let once_san = format!("{}[{once_list}]", if kingside { "O-O" } else { "O-O-O" });
                        if !once.is_empty() {
                            assert_eq!(read(&pos, &once_san), by_san, "{san} and {once_san}");
                        }
                        match &by_san {
                            Ok(m) => {
                                played += 1;
                                assert_eq!(read(&pos, &super::super::san::write(&pos, *m)), by_san);
                                assert_eq!(read(&pos, &write(&pos, *m)), by_san);
                            }
                            Err(Refusal::CastleMissiles { held }) => assert!(!held.is_empty(), "{san}"),
                            Err(Refusal::CastleInCheck) => refused_in_check += 1,
                            Err(_) => {}
                        }
                    }
                }
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                pos = pos.play(legal[(seed >> 33) as usize % legal.len()]);
            }
        }
        assert!(played >= 20 && refused_in_check >= 1, "castled {played}, refused in check {refused_in_check}");
    }

    /// Castling in check is castling in check however it is typed, in chess too (before: `e1g1`
    /// said the king cannot go there).
    #[test]
    fn castling_in_check_is_told_in_coordinates() {
        use crate::notation::{Refusal, parse_move};
        let pos = parse_position(&CHESS, "4k3/8/8/8/4r3/8/8/R3K2R w KQ - 0 1").unwrap();
        for typed in ["O-O", "e1g1", "e1h1", "O-O-O", "e1c1", "e1a1"] {
            match parse_move(&pos, typed) {
                Err(MoveError::Illegal { reason, .. }) => assert_eq!(reason, Refusal::CastleInCheck, "{typed}"),
                other => panic!("{typed}: {other:?}"),
            }
        }
    }

    /// A move that an irradiated square stops says so, the same in SAN and in coordinates (C5,
    /// C11): the square it would end on, the square on its way (a pawn's double step, a rook's
    /// line), the square castling would cross. Before: "no pawn of yours can reach e5" in SAN,
    /// "your pawn on e3 cannot go to e5" in coordinates, "castling … not possible now (moved king
    /// or rook, …)". A knight leaps over radiation, and the moves that avoid it stay legal.
    #[test]
    fn radiation_that_stops_a_move_is_named_alike_in_both_notations() {
        use crate::notation::{Refusal, parse_move, san};
        use crate::rules::variant::CAPATOMIC;
        let pos = parse_position(&CAPATOMIC, "10/5k4/10/10/10/*9/3**5/2NPP5/R4K1*1R/10 w AJ - 0 1 - -").unwrap();
        let at = |s: &str| Square::parse(s).unwrap();
        let refused = |typed: &str| match parse_move(&pos, typed) {
            Err(MoveError::Illegal { reason, .. }) => reason,
            other => panic!("{typed}: {other:?}"),
        };
        let on_the_way = |square, to| Refusal::IrradiatedOnTheWay { square: at(square), to: at(to) };
        for (typed, want) in [
            (["e5", "e3e5"], on_the_way("e4", "e5")),
            (["e4", "e3e4"], Refusal::Irradiated { square: at("e4") }),
            (["d4", "d3d4"], Refusal::Irradiated { square: at("d4") }),
            (["Ra7", "a2a7"], on_the_way("a5", "a7")),
            (["Ra5", "a2a5"], Refusal::Irradiated { square: at("a5") }),
            // The a2 rook is stopped by the king, the j2 rook by radiation.
            (["Rg2", "j2g2"], on_the_way("h2", "g2")),
            (["O-O", "f2j2"], Refusal::CastleIrradiated { square: at("h2") }),
            (["O-O", "f2i2"], Refusal::CastleIrradiated { square: at("h2") }),
            (["Ne4", "c3e4"], Refusal::Irradiated { square: at("e4") }),
        ] {
            for typed in typed {
                assert_eq!(refused(typed), want, "{typed}");
            }
        }
        assert!(refused("f2i2").to_string().contains("h2 is irradiated"));
        assert_eq!(refused("e5").to_string(), "e4 on the way to e5 is irradiated: no piece may move through it");
        // Not radiation: a piece in the way, a square out of the piece's reach.
        assert_eq!(refused("a2g2"), Refusal::CannotGo { role: Role::Rook, from: at("a2"), to: at("g2") });
        assert_eq!(refused("Ne6"), Refusal::CannotReach { role: Role::Knight, square: at("e6") });
        // The knight leaps over d4; the moves radiation leaves open are played.
        for typed in ["Nd5", "c3d5", "O-O-O", "Ra4", "Ri2", "j2i2"] {
            assert!(parse_move(&pos, typed).is_ok(), "{typed}");
        }
        assert_eq!(san::write(&pos, parse_move(&pos, "c3d5").unwrap()), "Nd5");
    }
}
