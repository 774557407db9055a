//! Standard algebraic notation, strict on output and lenient on input (chat users type `0-0`, `nf3`,
//! `ed5`, `e8q`, `launch e1 e5`). Capatomic adds `O-O[e1,g1]` and launches `Me1^e5` (C16); secret-bomb
//! chess adds detonations, written `@e4` and read as `@e4`, `boom e4` or a bare `boom`.

use super::{Hint, MissileHold, MoveError, Refusal};
use crate::rules::{Bitboard, Move, MoveKind, Position, Role, Square};

/// SAN without the check suffix.
pub fn write_plain(pos: &Position, m: Move) -> String {
    match m.kind {
        MoveKind::Castle { .. } => {
            let mut s = if m.to.file() > m.from.file() { "O-O".to_string() } else { "O-O-O".to_string() };
            let ms = pos.castling_missiles(m);
            if !ms.is_empty() {
                s.push('[');
                s.push_str(&ms.iter().map(|q| q.to_string()).collect::<Vec<_>>().join(","));
                s.push(']');
            }
            s
        }
        MoveKind::Launch => format!("M{}^{}", m.from, m.to),
        MoveKind::Detonate => format!("@{}", m.from),
        _ => {
            let Some(piece) = pos.piece_at(m.from) else { return super::uci::write(pos, m) };
            let capture = pos.is_capture(m);
            let mut s = String::new();
            if piece.role == Role::Pawn {
                if capture {
                    s.push(m.from.file_char());
                    s.push('x');
                }
                s.push_str(&m.to.to_string());
                if let MoveKind::Promotion(r) = m.kind {
                    s.push('=');
                    s.push(r.upper_char());
                }
                return s;
            }
            s.push(piece.role.upper_char());
            let others: Vec<Square> = pos
                .legal_moves()
                .iter()
                .filter(|o| {
                    o.to == m.to
                        && o.from != m.from
                        && matches!(o.kind, MoveKind::Normal)
                        && pos.piece_at(o.from).map(|p| p.role) == Some(piece.role)
                })
                .map(|o| o.from)
                .collect();
            if !others.is_empty() {
                let same_file = others.iter().any(|o| o.file() == m.from.file());
                let same_rank = others.iter().any(|o| o.rank() == m.from.rank());
                if !same_file {
                    s.push(m.from.file_char());
                } else if !same_rank {
                    s.push_str(&(m.from.rank() + 1).to_string());
                } else {
                    s.push_str(&m.from.to_string());
                }
            }
            if capture {
                s.push('x');
            }
            s.push_str(&m.to.to_string());
            s
        }
    }
}

/// `+`, `#` or nothing, for the position after `m`.
pub fn suffix(pos: &Position, m: Move) -> &'static str {
    let after = pos.play_unchecked(m);
    // Atomic: blowing up the king ends the game without a mate sign, as Fairy-Stockfish writes it.
    if after.is_check() { if after.legal_moves().is_empty() { "#" } else { "+" } } else { "" }
}

/// SAN with check and mate marks.
pub fn write(pos: &Position, m: Move) -> String {
    let mut s = write_plain(pos, m);
    s.push_str(suffix(pos, m));
    s
}

/// Why a detonation is refused: one reason whatever the cause, so that a refusal read by others (in
/// a channel) never tells where the bomb is or is not.
pub fn detonation_refusal(pos: &Position) -> Refusal {
    if pos.variant().bombs { Refusal::Detonation } else { Refusal::NoBombs }
}

/// Why a pawn cannot promote to `role` in this variant (a king, a pawn, a piece it does not have):
/// `None` where it may.
pub(super) fn promotion_refusal(pos: &Position, role: Role) -> Option<Refusal> {
    let roles = pos.variant().promotion_roles;
    (!roles.contains(&role)).then(|| Refusal::PromotionTo { role, roles: roles.to_vec() })
}

/// Reads `@e4`, `boom e4`, `boom@e4` or a bare `boom` (lower-case, spaces removed): `Some(square)`,
/// `Some(None)` for a bare `boom`, `None` when the text is not a detonation.
fn detonation_square(compact_lower: &str) -> Option<Option<Square>> {
    let rest = compact_lower.strip_prefix("boom").or_else(|| compact_lower.strip_prefix('@'))?;
    let rest = rest.strip_prefix('@').unwrap_or(rest);
    if rest.is_empty() {
        return Some(None);
    }
    Square::parse(rest).map(Some)
}

/// Why the launch `from^to` is refused (C8).
pub fn launch_refusal(pos: &Position, from: Square, to: Square) -> Refusal {
    let v = pos.variant();
    if !v.missiles {
        return Refusal::NoMissiles;
    }
    match pos.piece_at(from) {
        Some(p) if p.role == Role::Missile && p.color == pos.turn() => {}
        Some(p) if p.color == pos.turn() => return Refusal::NotAMissile { from, role: p.role },
        _ => return Refusal::NoMissileOn { from },
    }
    if !v.contains(to) {
        return Refusal::OffBoard { square: to };
    }
    if !pos.armed() {
        return Refusal::Unarmed;
    }
    if let Some(by) = pos.attackers_to(from, pos.turn().other(), pos.occupied()).first() {
        let role = pos.piece_at(by).map_or(Role::Pawn, |p| p.role);
        return Refusal::MissileAttacked { from, by, role };
    }
    if pos.shields().contains(to) {
        return Refusal::Shielded { square: to };
    }
    Refusal::LaunchIntoCheck
}

/// A square named in part, as SAN's disambiguation writes it (`g`, `1`, `g1`, or nothing): its
/// file and rank (0-based) where given; `None` when it is not one.
fn file_and_rank(d: &str) -> Option<(Option<u8>, Option<u8>)> {
    let mut file = None;
    let mut rank = None;
    let mut rest = d;
    if let Some(c) = rest.chars().next().filter(|c| ('a'..='j').contains(c)) {
        file = Some(c as u8 - b'a');
        rest = &rest[1..];
    }
    if !rest.is_empty() {
        let r: u8 = rest.parse().ok().filter(|r| (1..=10).contains(r))?;
        rank = Some(r - 1);
    }
    Some((file, rank))
}

/// A launch at `to` whose missile is named by `head` only in part (its file, its rank, or nothing):
/// the one legal launch of a missile that fits, or which ones were meant, or why none can; `None`
/// when `head` is neither.
fn launch_by_target(pos: &Position, input: &str, head: &str, to: Square) -> Option<Result<Move, MoveError>> {
    let (file, rank) = file_and_rank(head)?;
    let fits = |sq: Square| file.is_none_or(|f| sq.file() == f) && rank.is_none_or(|r| sq.rank() == r);
    let launches: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| m.kind == MoveKind::Launch && m.to == to && fits(m.from))
        .collect();
    Some(match launches.as_slice() {
        [m] => Ok(*m),
        [] => {
            // Why the first missile that fits cannot launch there (or that none fits).
            let own = pos.pieces(pos.turn(), Role::Missile);
            let reason = match own.into_iter().find(|&sq| fits(sq)) {
                _ if !pos.variant().missiles => Refusal::NoMissiles,
                Some(from) => launch_refusal(pos, from, to),
                None if own.first().is_none() => Refusal::NoPieceOfRole { role: Role::Missile },
                None => Refusal::CannotReach { role: Role::Missile, square: to },
            };
            Err(MoveError::Illegal { input: input.to_string(), reason, hints: Vec::new() })
        }
        many => Err(MoveError::Ambiguous {
            input: input.to_string(),
            candidates: many.iter().map(|m| write(pos, *m)).collect(),
        }),
    })
}

fn parse_castle(
    pos: &Position,
    body: &str,
    missiles: Option<Vec<Square>>,
    input: &str,
) -> Option<Result<Move, MoveError>> {
    let kingside = match body {
        "o-o" | "0-0" | "oo" | "00" => true,
        "o-o-o" | "0-0-0" | "ooo" | "000" => false,
        _ => return None,
    };
    let wanted = missiles.unwrap_or_default();
    let legal = pos.legal_moves();
    let found = legal.iter().copied().find(|m| castles_on(*m, kingside) && takes_missiles(pos, *m, &wanted));
    Some(found.ok_or_else(|| castle_refused(pos, &legal, input, kingside, &wanted)))
}

/// Whether `m` castles on that side.
pub(super) fn castles_on(m: Move, kingside: bool) -> bool {
    m.is_castle() && (m.to.file() > m.from.file()) == kingside
}

/// Whether castling move `m` takes exactly the missiles `wanted` along, as [`missile_list`]
/// gives them.
pub(super) fn takes_missiles(pos: &Position, m: Move, wanted: &[Square]) -> bool {
    let mut along = pos.castling_missiles(m);
    along.sort();
    along == wanted
}

/// The missiles named in a castling's brackets (`e1,g1`), each once and in one order, so that
/// `[g1,e1,e1]` names what `[e1,g1]` does, in SAN and in coordinates alike; `None` if a part is
/// no square.
pub(super) fn missile_list(inner: &str) -> Option<Vec<Square>> {
    let mut named =
        inner.split(',').map(str::trim).filter(|p| !p.is_empty()).map(Square::parse).collect::<Option<Vec<_>>>()?;
    named.sort();
    named.dedup();
    Some(named)
}

/// Castling on one side that is not legal as typed, in SAN (`O-O[e1]`) or in coordinates
/// (`f2j2[e1]`, `e1g1`): one answer for both. Where castling that way is possible, what holds
/// each named missile back; else castling out of check; else that castling is not possible now;
/// with the legal castling moves beside it.
pub(super) fn castle_refused(
    pos: &Position,
    legal: &[Move],
    input: &str,
    kingside: bool,
    wanted: &[Square],
) -> MoveError {
    let reason = if legal.iter().any(|m| castles_on(*m, kingside)) {
        Refusal::CastleMissiles { held: missiles_held(pos, kingside, wanted) }
    } else if pos.is_check() {
        Refusal::CastleInCheck
    } else if let Some(square) = pos.castling_irradiated(kingside) {
        Refusal::CastleIrradiated { square }
    } else {
        Refusal::CastleImpossible
    };
    let mut options: Vec<String> = legal.iter().filter(|m| m.is_castle()).map(|m| write(pos, *m)).collect();
    options.dedup();
    let hints = if options.is_empty() { vec![] } else { vec![Hint::Castling(options)] };
    MoveError::Illegal { input: input.to_string(), reason, hints }
}

/// Why each of the missiles `wanted` cannot come along when castling on that side (C12), castling
/// itself being possible; those that could come are left out.
pub(super) fn missiles_held(pos: &Position, kingside: bool, wanted: &[Square]) -> Vec<(Square, MissileHold)> {
    let v = pos.variant();
    let us = pos.turn();
    let (Some(king), Some(rank)) = (pos.king(us), v.missile_rank_of(us)) else {
        return wanted.iter().map(|&sq| (sq, MissileHold::NoMissile)).collect();
    };
    let kdest = Square::new(v.castle_king_files[usize::from(!kingside)], king.rank());
    let offset = kdest.file() as i32 - king.file() as i32;
    let mut held = Vec::new();
    for &missile in wanted {
        let beside = missile.rank() == rank && missile.file().abs_diff(king.file()) == 1;
        let own = pos.piece_at(missile).is_some_and(|p| p.color == us && p.role == Role::Missile);
        let hold = if !beside || !own {
            Some(MissileHold::NoMissile)
        } else if !pos.missile_rights().contains(missile) {
            Some(MissileHold::Moved)
        } else if offset == 0 {
            Some(MissileHold::KingStays)
        } else {
            // Its path along the rank, up to and including its destination; another named missile
            // moves out of the way.
            let step = offset.signum();
            (1..=offset.abs()).filter_map(|i| missile.offset(step * i, 0)).find_map(|sq| {
                if pos.irradiated().contains(sq) {
                    Some(MissileHold::Irradiated(sq))
                } else if pos.occupied().contains(sq) && !wanted.contains(&sq) {
                    Some(MissileHold::Blocked(sq))
                } else {
                    None
                }
            })
        };
        if let Some(hold) = hold {
            held.push((missile, hold));
        }
    }
    held
}

fn split_missiles(s: &str) -> Result<(String, Option<Vec<Square>>), ()> {
    match s.find('[') {
        None => Ok((s.to_string(), None)),
        Some(i) => {
            let inner = s[i + 1..].strip_suffix(']').ok_or(())?;
            Ok((s[..i].to_string(), Some(missile_list(inner).ok_or(())?)))
        }
    }
}

/// Takes a square off the end of `s` (`d5`, `a10`).
fn take_last_square(s: &str) -> Option<(&str, Square)> {
    for len in [3, 2] {
        if s.len() >= len {
            let (head, tail) = s.split_at(s.len() - len);
            if let Some(sq) = Square::parse(tail) {
                return Some((head, sq));
            }
        }
    }
    None
}

/// Reads SAN leniently and finds the legal move it means.
pub fn parse(pos: &Position, input: &str) -> Result<Move, MoveError> {
    let trimmed = input.trim();
    let syntax = || MoveError::syntax(pos, trimmed);
    if !trimmed.is_ascii() {
        return Err(syntax());
    }
    let mut s: String = trimmed.split_whitespace().collect::<Vec<_>>().join(" ");
    let lower = s.to_ascii_lowercase();
    let launch_word = lower.starts_with("launch ");
    if launch_word {
        s = s[7..].to_string();
    }
    let compact: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    let compact = compact.trim_end_matches(['+', '#', '!', '?']).to_string();
    let (body, missiles) = split_missiles(&compact.to_ascii_lowercase()).map_err(|_| syntax())?;
    if let Some(r) = parse_castle(pos, &body, missiles.clone(), trimmed) {
        return r;
    }
    if missiles.is_some() {
        return Err(syntax());
    }
    if let Some(sq) = detonation_square(&body) {
        let legal = pos.legal_moves();
        let found = legal.iter().copied().find(|m| m.is_detonation() && sq.is_none_or(|s| s == m.from));
        return found.ok_or_else(|| MoveError::Illegal {
            input: trimmed.to_string(),
            reason: detonation_refusal(pos),
            hints: Vec::new(),
        });
    }
    // Launches: Me1^e5, e1^e5, launch e1 e5.
    if body.contains('^') || launch_word {
        let b = body.strip_prefix('m').filter(|r| r.contains('^') || launch_word).unwrap_or(&body);
        let b = b.replace('^', "");
        let (head, to) = take_last_square(&b).ok_or_else(syntax)?;
        let from = match Square::parse(head) {
            Some(from) => from,
            // `M^e5`, `Mg^e5`, `M1^e5`: the missile by its file or rank, or not named.
            None => return launch_by_target(pos, trimmed, head, to).ok_or_else(syntax)?,
        };
        let m = Move { from, to, kind: MoveKind::Launch };
        if pos.legal_moves().contains(&m) {
            return Ok(m);
        }
        return Err(MoveError::Illegal {
            input: trimmed.to_string(),
            reason: launch_refusal(pos, from, to),
            hints: Vec::new(),
        });
    }
    // Ordinary SAN: [piece][file][rank][x]square[=promo]
    let raw: String = compact.chars().filter(|&c| c != 'x' && c != 'X' && c != ':' && c != '-').collect();
    let raw = raw.trim_end_matches(['+', '#']);
    let (raw, promo) = match raw.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() && i > 0 => {
            let before = &raw[..i];
            let before = before.strip_suffix('=').unwrap_or(before);
            if before.ends_with(|ch: char| ch.is_ascii_digit()) {
                (before.to_string(), Some(Role::from_char(c).ok_or_else(syntax)?))
            } else {
                (raw.to_string(), None)
            }
        }
        _ => (raw.to_string(), None),
    };
    let (head, to) = take_last_square(&raw).ok_or_else(syntax)?;
    if let Some(refusal) = promo.and_then(|r| promotion_refusal(pos, r)) {
        return Err(MoveError::Illegal { input: trimmed.to_string(), reason: refusal, hints: Vec::new() });
    }
    let mut readings: Vec<Reading> = Vec::new();
    let mut chars = head.chars();
    match chars.next() {
        None => readings.push((Role::Pawn, None, None)),
        Some(c) => {
            if let Some(role) = Role::from_char(c) {
                let explicit = c.is_ascii_uppercase() || !('a'..='j').contains(&c);
                if let Some((f, r)) = file_and_rank(chars.as_str()) {
                    readings.push((role, f, r));
                }
                if !explicit {
                    // Lower-case b, a, c could also be a pawn's file.
                    if let Some((f, r)) = file_and_rank(head) {
                        readings.push((Role::Pawn, f, r));
                    }
                }
            } else if let Some((f, r)) = file_and_rank(head) {
                readings.push((Role::Pawn, f, r));
            }
        }
    }
    if readings.is_empty() {
        return Err(syntax());
    }
    let legal = pos.legal_moves();
    let mut matches: Vec<Move> = Vec::new();
    let mut needs_promo = false;
    // Readings are tried in order (a pawn's file before a lower-case piece letter, as SAN means it);
    // the first reading that matches any legal move wins.
    let mut pawn_first = readings.clone();
    pawn_first.sort_by_key(|r| r.0 != Role::Pawn || head.chars().next().is_some_and(|c| c.is_ascii_uppercase()));
    for &(role, file, rank) in &pawn_first {
        for m in legal.iter().copied() {
            if m.to != to || matches!(m.kind, MoveKind::Castle { .. } | MoveKind::Launch | MoveKind::Detonate) {
                continue;
            }
            if pos.piece_at(m.from).map(|p| p.role) != Some(role) {
                continue;
            }
            if file.is_some_and(|f| f != m.from.file()) || rank.is_some_and(|r| r != m.from.rank()) {
                continue;
            }
            match (m.promotion_role(), promo) {
                (Some(a), Some(b)) if a == b => {}
                (None, None) => {}
                (Some(_), None) => {
                    needs_promo = true;
                    continue;
                }
                _ => continue,
            }
            if !matches.contains(&m) {
                matches.push(m);
            }
        }
        if !matches.is_empty() {
            break;
        }
    }
    match matches.as_slice() {
        [m] => Ok(*m),
        [] => Err(explain_illegal(pos, &legal, trimmed, &readings_to_explain(pos, pawn_first, to), to, needs_promo)),
        many => Err(MoveError::Ambiguous {
            input: trimmed.to_string(),
            candidates: many.iter().map(|m| write(pos, *m)).collect(),
        }),
    }
}

/// A reading of a typed move: the piece, and the file and rank it comes from when typed.
type Reading = (Role, Option<u8>, Option<u8>);

/// The readings a refusal speaks of, in the order the move was tried (a lower-case letter's pawn
/// first): without a piece the variant does not have (`cxd5` in chess is no chancellor's move) or a
/// pawn on a file too far to reach the square (`bd3` is no pawn's), unless that leaves none.
fn readings_to_explain(pos: &Position, readings: Vec<Reading>, to: Square) -> Vec<Reading> {
    let possible = |&(role, file, _): &Reading| {
        pos.variant().has_role(role) && (role != Role::Pawn || file.is_none_or(|f| f.abs_diff(to.file()) <= 1))
    };
    if readings.iter().any(possible) { readings.into_iter().filter(possible).collect() } else { readings }
}

fn explain_illegal(
    pos: &Position,
    legal: &[Move],
    input: &str,
    readings: &[Reading],
    to: Square,
    needs_promo: bool,
) -> MoveError {
    let input = input.to_string();
    let fits_kind = |m: &Move| !matches!(m.kind, MoveKind::Castle { .. } | MoveKind::Launch | MoveKind::Detonate);
    let fits = |m: &Move| {
        m.to == to
            && fits_kind(m)
            && readings.iter().any(|&(role, file, rank)| {
                pos.piece_at(m.from).is_some_and(|p| p.role == role)
                    && file.is_none_or(|f| f == m.from.file())
                    && rank.is_none_or(|r| r == m.from.rank())
            })
    };
    if needs_promo {
        let roles = pos.variant().promotion_roles.to_vec();
        let promotion = legal.iter().copied().find(|m| fits(m) && m.promotion_role() == roles.first().copied());
        let example = promotion.map_or_else(|| format!("{to}=Q"), |m| write_plain(pos, m));
        return MoveError::Illegal { input, reason: Refusal::Promotion { roles, example }, hints: Vec::new() };
    }
    let role = readings[0].0;
    let us = pos.turn();
    if !pos.variant().contains(to) {
        return MoveError::Illegal { input, reason: Refusal::OffBoard { square: to }, hints: Vec::new() };
    }
    if !pos.variant().has_role(role) {
        return MoveError::Illegal { input, reason: Refusal::NoSuchRole { role }, hints: vec![] };
    }
    let mine: Bitboard = pos.pieces(us, role);
    if mine.is_empty() {
        return MoveError::Illegal { input, reason: Refusal::NoPieceOfRole { role }, hints: Vec::new() };
    }
    let mut role_moves: Vec<String> = legal
        .iter()
        .filter(|m| {
            // Hints never list a detonation: they may be read by others.
            !m.is_castle() && !m.is_launch() && !m.is_detonation() && pos.piece_at(m.from).map(|p| p.role) == Some(role)
        })
        .map(|m| write(pos, *m))
        .collect();
    role_moves.dedup();
    // A piece that makes the move by its pattern, where the rules then refuse it for the king's sake
    // (a pin, a check, an explosion): the reason is that, whatever the piece.
    let reaching = pos.pseudo_legal_moves().iter().copied().find(|m| fits(m));
    let reason = if pos.irradiated().contains(to) {
        Refusal::Irradiated { square: to }
    } else if pos.piece_at(to).is_some_and(|p| p.color == us) {
        Refusal::OwnPiece { square: to }
    } else if let Some(m) = reaching {
        let role = pos.piece_at(m.from).map_or(role, |p| p.role);
        king_refusal(pos, m, role)
    } else if let Some(square) = readings.iter().find_map(|&(role, file, rank)| {
        // A piece of the kind typed, from the file or rank typed, that only radiation on its way stops.
        pos.pieces(us, role)
            .into_iter()
            .filter(|from| file.is_none_or(|f| f == from.file()) && rank.is_none_or(|r| r == from.rank()))
            .find_map(|from| pos.irradiated_in_the_way(from, to))
    }) {
        Refusal::IrradiatedOnTheWay { square, to }
    } else if let Some(&(role, file, rank)) = readings.iter().find(|&&(role, file, rank)| {
        // The file or rank typed is what keeps the move out: say so, rather than that no such
        // piece can reach the square while the hints list a move there.
        (file.is_some() || rank.is_some())
            && legal.iter().any(|m| m.to == to && fits_kind(m) && pos.piece_at(m.from).is_some_and(|p| p.role == role))
    }) {
        Refusal::NotFrom { role, square: to, file, rank }
    } else {
        Refusal::CannotReach { role, square: to }
    };
    // "You are in check" beside a reason that says so already would say it twice.
    let says_check = matches!(reason, Refusal::CheckNotAnswered { .. });
    let hints = if role_moves.is_empty() {
        if pos.is_check() && !says_check { vec![Hint::InCheck] } else { Vec::new() }
    } else {
        vec![Hint::Moves { role, moves: role_moves }]
    };
    MoveError::Illegal { input, reason, hints }
}

/// Why `m`, a move the piece's pattern allows, is not legal: it explodes the own king (atomic), does
/// not answer a check, or leaves the king in check.
pub(super) fn king_refusal(pos: &Position, m: Move, role: Role) -> Refusal {
    let after = pos.play_unchecked(m);
    if pos.variant().atomic && after.king(pos.turn()).is_none() {
        Refusal::ExplodesOwnKing { role }
    } else if pos.is_check() {
        Refusal::CheckNotAnswered { role }
    } else {
        Refusal::IntoCheck { role }
    }
}

/// The legal moves of the side to move in SAN, for people to read: the moves of each kind of piece
/// (kinds in the board's order), then castling, then missile launches; with `from`, only the moves of
/// the piece on that square. A detonation (secret-bomb chess) is never listed: the list may be read
/// by others, and a detonation names the bomb's square.
pub fn listed_moves(pos: &Position, from: Option<Square>) -> Vec<Hint> {
    let mut by_role: Vec<(Role, Vec<String>)> = Vec::new();
    let (mut castling, mut launches) = (Vec::new(), Vec::new());
    for (m, san) in readable_moves(pos, from) {
        if m.is_castle() {
            castling.push(san);
        } else if m.is_launch() {
            launches.push(san);
        } else if let Some(role) = pos.piece_at(m.from).map(|p| p.role) {
            match by_role.iter_mut().find(|(r, _)| *r == role) {
                Some((_, moves)) => moves.push(san),
                None => by_role.push((role, vec![san])),
            }
        }
    }
    by_role.sort_by_key(|(role, _)| role.index());
    let mut hints: Vec<Hint> = by_role
        .into_iter()
        .map(|(role, mut moves)| {
            moves.dedup();
            Hint::Moves { role, moves }
        })
        .collect();
    if !castling.is_empty() {
        hints.push(Hint::Castling(castling));
    }
    if !launches.is_empty() {
        hints.push(Hint::Launches(launches));
    }
    hints
}

/// [`listed_moves`] of every square at once, from one generation of the legal moves: each square
/// of a piece that can move (in the board's order) with its moves as `listed_moves(pos, Some(square))`
/// lists them (plain moves, then castling, then launches).
pub fn listed_moves_by_square(pos: &Position) -> Vec<(Square, Vec<String>)> {
    let kind = |m: &Move| if m.is_launch() { 2 } else { u8::from(m.is_castle()) };
    let mut rows: Vec<(Square, u8, String)> =
        readable_moves(pos, None).into_iter().map(|(m, san)| (m.from, kind(&m), san)).collect();
    // Stable: within a square and kind, the order the moves were generated in.
    rows.sort_by_key(|(sq, kind, _)| (sq.index(), *kind));
    rows.dedup_by(|a, b| a.1 == 0 && a == b);
    let mut out: Vec<(Square, Vec<String>)> = Vec::new();
    for (sq, _, san) in rows {
        match out.last_mut() {
            Some((last, moves)) if *last == sq => moves.push(san),
            _ => out.push((sq, vec![san])),
        }
    }
    out
}

/// The legal moves of the side to move (of the piece on `from` only, given) with their SAN, a
/// detonation left out: what [`listed_moves`] may show.
fn readable_moves(pos: &Position, from: Option<Square>) -> Vec<(Move, String)> {
    let legal = pos.legal_moves();
    legal
        .iter()
        .filter(|m| !m.is_detonation() && from.is_none_or(|f| m.from == f))
        .map(|m| (*m, write(pos, *m)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;
    use crate::rules::variant::{CAPABLANCA, CHESS};

    /// Every legal move but a detonation is listed once, under its piece's kind (castling and
    /// launches apart), in random games of every variant; a square lists that piece's moves alone.
    #[test]
    fn listed_moves_are_the_legal_moves_grouped() {
        use crate::rules::variant::VARIANTS;
        let mut seen_launches = false;
        for v in VARIANTS {
            let mut pos = Position::start(v);
            if v.bombs {
                let pawn = |c| pos.pieces(c, Role::Pawn).into_iter().next();
                pos = pos.with_bombs([pawn(crate::rules::Color::White), pawn(crate::rules::Color::Black)]).unwrap();
            }
            for ply in 0..60usize {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let listed = listed_moves(&pos, None);
                let mut want: Vec<String> =
                    legal.iter().filter(|m| !m.is_detonation()).map(|m| write(&pos, *m)).collect();
                want.sort();
                want.dedup();
                let mut got = Vec::new();
                for h in &listed {
                    match h {
                        Hint::Moves { role, moves } => {
                            for san in moves {
                                let m = parse(&pos, san).unwrap();
                                assert_eq!(pos.piece_at(m.from).map(|p| p.role), Some(*role), "{san}");
                                assert!(!m.is_castle() && !m.is_launch(), "{san}");
                            }
                            got.extend(moves.iter().cloned());
                        }
                        Hint::Castling(moves) => got.extend(moves.iter().cloned()),
                        Hint::Launches(moves) => {
                            seen_launches = true;
                            assert!(moves.iter().all(|san| parse(&pos, san).unwrap().is_launch()));
                            got.extend(moves.iter().cloned());
                        }
                        Hint::InCheck => panic!("a listing is no refusal"),
                    }
                }
                got.sort();
                assert_eq!(got, want, "{} at ply {ply}", v.name);
                // One square: that piece's moves and nothing else.
                let from = legal.iter().find(|m| !m.is_detonation()).unwrap().from;
                let one: Vec<String> = listed_moves(&pos, Some(from))
                    .iter()
                    .flat_map(|h| match h {
                        Hint::Moves { moves, .. } | Hint::Castling(moves) | Hint::Launches(moves) => moves.clone(),
                        Hint::InCheck => vec![],
                    })
                    .collect();
                assert!(!one.is_empty() && one.iter().all(|san| parse(&pos, san).unwrap().from == from));
                // Every square at once lists what each square alone lists.
                for (sq, moves) in listed_moves_by_square(&pos) {
                    let alone: Vec<String> =
                        listed_moves(&pos, Some(sq)).iter().flat_map(|h| h.moves().to_vec()).collect();
                    assert_eq!(moves, alone, "{} at ply {ply}, {sq}", v.name);
                }
                let m = legal[(ply * 7 + 3) % legal.len()];
                pos = pos.play(m);
            }
        }
        assert!(seen_launches, "Capatomic's launches were listed");
    }

    /// A move number in front is left out; digits with a dash (castling) or without a dot are
    /// no move number.
    #[test]
    fn move_numbers_are_left_out() {
        use crate::notation::{parse_move, without_move_number};
        for (text, want) in [
            ("1. e4", "e4"),
            ("1.e4", "e4"),
            ("12...Nf6", "Nf6"),
            ("3… O-O", "O-O"),
            ("0-0", "0-0"),
            ("1e4", "1e4"),
            ("1.", "1."),
            ("e4", "e4"),
            ("12345.e4", "12345.e4"),
            ("5. 0-0", "0-0"),
            ("12.00", "12.00"),
            ("1.000", "1.000"),
            ("3. 00", "3. 00"),
        ] {
            assert_eq!(without_move_number(text), want, "{text}");
        }
        let pos = Position::start(&CHESS);
        assert_eq!(parse_move(&pos, "1. e4"), parse_move(&pos, "e4"));
        let refused = |typed: &str| match parse_move(&pos, typed) {
            Err(MoveError::Illegal { reason, .. }) => reason,
            other => panic!("{typed}: {other:?}"),
        };
        let at = |s: &str| Square::parse(s).unwrap();
        assert_eq!(refused("1e4"), Refusal::NotFrom { role: Role::Pawn, square: at("e4"), file: None, rank: Some(0) });
        assert_eq!(
            refused("Nbf3"),
            Refusal::NotFrom { role: Role::Knight, square: at("f3"), file: Some(1), rank: None }
        );
        assert_eq!(refused("Ne5"), Refusal::CannotReach { role: Role::Knight, square: at("e5") });
    }

    /// A lower-case letter is a pawn's file before it is a piece, in the refusal as in the reading:
    /// `cxd5` in chess is no chancellor's move (there is none), `bxc5` is told of the pawn with the
    /// pawn's moves beside it, and `bd3` (a file no pawn could come from) of the bishop.
    #[test]
    fn a_lower_case_letter_is_refused_as_it_is_read() {
        use crate::notation::parse_move;
        use crate::rules::variant::ATOMIC;
        let at = |s: &str| Square::parse(s).unwrap();
        let refusal = |pos: &Position, typed: &str| match parse_move(pos, typed) {
            Err(MoveError::Illegal { reason, hints, .. }) => (reason, hints),
            other => panic!("{typed}: {other:?}"),
        };
        let pos = parse_position(&CHESS, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2").unwrap();
        for (typed, rank) in [("cxd5", None), ("c4xd5", Some(3)), ("cd5", None)] {
            let (reason, hints) = refusal(&pos, typed);
            assert_eq!(reason, Refusal::NotFrom { role: Role::Pawn, square: at("d5"), file: Some(2), rank }, "{typed}");
            assert!(
                matches!(&hints[..], [Hint::Moves { role: Role::Pawn, moves }] if moves.contains(&"exd5".to_string())),
                "{typed}: {hints:?}"
            );
        }
        let (reason, hints) = refusal(&pos, "bxc5");
        assert_eq!(reason, Refusal::CannotReach { role: Role::Pawn, square: at("c5") });
        assert!(matches!(&hints[..], [Hint::Moves { role: Role::Pawn, .. }]), "{hints:?}");
        let (reason, _) = refusal(&Position::start(&CHESS), "bd3");
        assert_eq!(reason, Refusal::CannotReach { role: Role::Bishop, square: at("d3") });
        // Atomic: the pawn's capture is refused for what it would blow up.
        let mut pos = Position::start(&ATOMIC);
        for san in ["e3", "d5", "Ke2", "Kd7", "Kd3", "Kd6", "Kd4", "a6", "c4", "a5"] {
            pos = pos.play_unchecked(parse_move(&pos, san).unwrap());
        }
        for typed in ["cxd5", "c4xd5"] {
            assert_eq!(refusal(&pos, typed).0, Refusal::ExplodesOwnKing { role: Role::Pawn }, "{typed}");
        }
    }

    #[test]
    fn lenient_input() {
        let pos = Position::start(&CHESS);
        for (typed, want) in [("e4", "e2e4"), ("Nf3", "g1f3"), ("nf3", "g1f3"), ("N f3", "g1f3"), ("Ng1f3", "g1f3")] {
            let m = parse(&pos, typed).unwrap_or_else(|e| panic!("{typed}: {e}"));
            assert_eq!(crate::notation::uci::write(&pos, m), want, "{typed}");
        }
        let pos = parse_position(&CHESS, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1").unwrap();
        for typed in ["exd5", "ed5", "e:d5", "exd5+", "Pxd5"] {
            assert_eq!(write(&pos, parse(&pos, typed).unwrap()), "exd5", "{typed}");
        }
    }

    #[test]
    fn b_is_bishop_or_pawn() {
        let pos = parse_position(&CHESS, "4k3/8/8/B7/8/2p5/1P6/4K3 w - - 0 1").unwrap();
        // Lower case b is the b-pawn, as SAN means it; upper case B is the bishop.
        assert_eq!(write(&pos, parse(&pos, "bxc3").unwrap()), "bxc3");
        assert_eq!(write(&pos, parse(&pos, "Bxc3").unwrap()), "Bxc3");
        // Where no pawn can make the move, a lower-case piece letter is read as the piece.
        let pos = parse_position(&CHESS, "4k3/8/8/B7/8/2p5/8/4K3 w - - 0 1").unwrap();
        assert_eq!(write(&pos, parse(&pos, "bxc3").unwrap()), "Bxc3");
    }

    #[test]
    fn illegal_messages_name_the_reason() {
        let pos = Position::start(&CHESS);
        let e = parse(&pos, "Nf4").unwrap_err().to_string();
        assert!(e.contains("no knight of yours can reach f4") && e.contains("Nf3"), "{e}");
        let pos = parse_position(&CHESS, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let e = parse(&pos, "a8").unwrap_err().to_string();
        assert!(e.contains("promote"), "{e}");
        assert_eq!(write(&pos, parse(&pos, "a8q").unwrap()), "a8=Q+");
    }

    #[test]
    fn check_is_said_once() {
        // White in check from the rook on e8: no pawn move answers it, so no pawn move is legal.
        let pos = parse_position(&CHESS, "4r1k1/8/8/8/8/8/3P4/4K3 w - - 0 1").unwrap();
        for typed in ["d4", "d3"] {
            let e = parse(&pos, typed).unwrap_err();
            let MoveError::Illegal { reason, hints, .. } = &e else { panic!("{typed}: {e}") };
            assert!(matches!(reason, Refusal::CheckNotAnswered { role: Role::Pawn }), "{typed}: {e}");
            assert!(!hints.contains(&Hint::InCheck), "{typed}: {e}");
            assert_eq!(e.to_string().matches("in check").count(), 1, "{typed}: {e}");
        }
    }

    #[test]
    fn no_promotion_to_a_king() {
        use crate::rules::variant::VARIANTS;
        for v in VARIANTS {
            assert!(!v.promotion_roles.contains(&Role::King), "{}", v.name);
        }
        let pos = parse_position(&CHESS, "6n1/7P/8/8/8/8/8/k3K3 w - - 0 1").unwrap();
        for typed in ["hxg8=K", "hxg8K", "h8=K", "h8=P"] {
            let e = parse(&pos, typed).unwrap_err();
            assert!(matches!(&e, MoveError::Illegal { reason: Refusal::PromotionTo { .. }, .. }), "{typed}: {e}");
        }
        assert!(parse(&pos, "hxg8=K").unwrap_err().to_string().contains("cannot promote to a king"));
        let e = crate::notation::uci::parse(&pos, "h7g8k").unwrap_err();
        assert!(matches!(e, MoveError::Illegal { reason: Refusal::PromotionTo { role: Role::King, .. }, .. }), "{e}");
        assert_eq!(write(&pos, parse(&pos, "hxg8=Q").unwrap()), "hxg8=Q");
    }

    #[test]
    fn disambiguation_and_castling() {
        let pos = parse_position(&CAPABLANCA, "r3k4r/10/10/10/10/10/10/R3K4R w KQkq - 0 1").unwrap();
        let m = parse(&pos, "0-0").unwrap();
        assert_eq!(write(&pos, m), "O-O");
        let pos = parse_position(&CHESS, "4k3/8/8/8/8/8/4K3/R6R w - - 0 1").unwrap();
        assert!(matches!(parse(&pos, "Rd1"), Err(MoveError::Ambiguous { .. })));
        assert_eq!(write(&pos, parse(&pos, "Rad1").unwrap()), "Rad1");
        let pos = parse_position(&CHESS, "4k3/8/8/8/R7/8/8/R3K3 w - - 0 1").unwrap();
        assert!(matches!(parse(&pos, "Ra2"), Err(MoveError::Ambiguous { .. })));
        assert_eq!(write(&pos, parse(&pos, "R1a2").unwrap()), "R1a2");
    }
}
