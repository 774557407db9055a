//! Static evaluation: material, piece-square terms sized to the board, mobility, king safety and pawn
//! structure, plus the atomic (explosion exposure, touching kings) and Capatomic (launch threats, shields,
//! missiles kept ready to castle) terms.
//!
//! Every value and weight lives in one [`EvalParams`] table per variant ([`params_for`]); the code here
//! only combines them. Scores are centipawns from the point of view of the side to move.

use crate::rules::attacks::{
    bishop_attacks, bishop_pseudo_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
    rook_pseudo_attacks,
};
use crate::rules::{Bitboard, Color, EvalFamily, Piece, Position, Role, Square, Variant};

/// Every number the evaluation uses for one variant. Arrays indexed by role are in [`Role::ALL`] order
/// (P N B R Q K A C M).
#[derive(Clone, Debug)]
pub struct EvalParams {
    /// Material in the middlegame, per role.
    pub material_mg: [i32; 9],
    /// Material in the endgame, per role.
    pub material_eg: [i32; 9],
    /// Game-phase weight of each role (pawns and kings 0); the sum at the start is the full phase.
    pub phase: [i32; 9],
    /// Centralisation bonus per step away from the nearest edge (files and ranks added), middlegame.
    pub center_mg: [i32; 9],
    /// Same, endgame.
    pub center_eg: [i32; 9],
    /// Middlegame penalty per rank the king has left its castling rank.
    pub king_advance_mg: i32,
    /// Middlegame penalty per file the king stands away from the nearest edge file (castle early).
    pub king_center_file_mg: i32,
    /// Pawn bonus per rank advanced, middlegame and endgame.
    pub pawn_advance: (i32, i32),
    /// Mobility per reachable square (not own-occupied, not attacked by enemy pawns), per role: middlegame
    /// and endgame.
    pub mobility: [i32; 9],
    pub mobility_eg: [i32; 9],
    /// Bonus by rank, seen from the piece's own side: index role × 10 + rank (0 = own back rank),
    /// middlegame and endgame.
    pub rank_mg: [i32; 90],
    pub rank_eg: [i32; 90],
    /// Bonus by file, counted from the nearest edge file: index role × 5 + files from the edge (0..=4),
    /// middlegame and endgame.
    pub file_mg: [i32; 45],
    pub file_eg: [i32; 45],
    /// Bonus for each own pawn in the three files in front of the king, within two ranks (middlegame).
    pub pawn_shelter: i32,
    /// King-danger units per attack on the king zone, by attacking role.
    pub king_attack_units: [i32; 9],
    /// Middlegame penalty = units² / this divisor (capped by `king_danger_cap`).
    pub king_danger_div: i32,
    pub king_danger_cap: i32,
    pub doubled_pawn: (i32, i32),
    pub isolated_pawn: (i32, i32),
    /// Passed pawn bonus by how far it has advanced as a fraction of the way (0..=8 eighths), endgame.
    pub passed_pawn: [i32; 9],
    pub bishop_pair: (i32, i32),
    /// Rook-movers (rook, chancellor) on a file without pawns, and on one without own pawns.
    pub rook_open_file: (i32, i32),
    pub rook_semi_open_file: (i32, i32),
    /// Per enemy piece (not pawn, not king) attacked by one of our pawns.
    pub threat_by_pawn: (i32, i32),
    /// Per enemy piece attacked by a piece worth clearly less (minor on rook or heavier, rook on heavier).
    pub threat_by_lesser: (i32, i32),
    /// Per enemy piece (not pawn, not king) we attack that nothing of theirs defends.
    pub hanging: (i32, i32),
    /// Endgame, per passed pawn: bonus per step the enemy king is farther than ours from its stop square,
    /// scaled by how far the pawn has come (eighths, as `passed_pawn`) and divided by 8.
    pub passed_king_distance: i32,
    /// Bonus for the side to move.
    pub tempo: i32,
    /// Per pawn defended by an own pawn (a chain), and again per pawn standing beside one (a phalanx).
    pub pawn_connected: (i32, i32),
    /// Per rook-mover (rook, chancellor) on the second rank from the enemy side.
    pub rook_seventh: (i32, i32),
    /// Per knight or bishop on an outpost: in the enemy half, defended by a pawn, out of enemy pawns' reach.
    pub outpost: (i32, i32),
    /// Middlegame, per piece attacking the enemy king zone (when at least two do).
    pub king_attackers: i32,
    /// Middlegame penalty when no own pawn stands on the king's file.
    pub king_open_file: i32,
    /// Middlegame penalty per square from which an enemy piece could check the king next move, where
    /// nothing of ours attacks it and no enemy piece stands (not in atomic).
    pub safe_check: i32,
    /// Middlegame penalty per square next to the king that the enemy's pieces (not its king) attack and
    /// ours (not the king) do not defend.
    pub king_ring_weak: i32,
    /// Middlegame penalty per enemy pawn on the king's file or a neighbouring one, at most three ranks in
    /// front of the king.
    pub pawn_storm: i32,
    /// Atomic: penalty per own piece next to the own king that the enemy attacks (a capture there explodes
    /// the king).
    pub atomic_exposed_attacked: i32,
    /// Atomic: penalty per own piece next to the own king (potential explosion fuse).
    pub atomic_exposed: i32,
    /// Atomic: bonus for the side behind in material when the kings touch (no checks, no explosions).
    pub atomic_kings_touch: i32,
    /// Capatomic: share (per cent) of the best launch gain credited to the side to move...
    pub launch_threat_to_move: i32,
    /// ...and to the side not to move.
    pub launch_threat_waiting: i32,
    /// Capatomic: bonus per own non-pawn piece inside the own king's shield (immune to launches), when
    /// missiles are live.
    pub shield_piece: i32,
    /// Capatomic: bonus per missile that may still come along when castling.
    pub missile_castle_ready: i32,
    /// Capatomic: penalty per irradiated square in the own king zone (fewer flight squares).
    pub radiation_near_king: i32,
}

const N: usize = 1;
const B: usize = 2;
const R: usize = 3;
const Q: usize = 4;
const A: usize = 6;
const C: usize = 7;

/// Chess, fitted with `capabot tune-fit` to Fairy-Stockfish scores of 30 000 quiet positions (docs/ai.md).
pub static STANDARD: EvalParams = EvalParams {
    material_mg: [85, 314, 323, 474, 1242, 0, 800, 850, 400],
    material_eg: [105, 290, 320, 520, 960, 0, 820, 900, 380],
    phase: [0, 1, 1, 2, 4, 0, 3, 3, 1],
    center_mg: [4, 16, 7, 4, -1, -15, 3, 2, 1],
    center_eg: [-5, 0, -10, -1, 5, 11, 3, 3, 2],
    king_advance_mg: 6,
    king_center_file_mg: 22,
    pawn_advance: (3, 5),
    mobility: [0, 10, 9, 7, 6, 0, 3, 2, 0],
    mobility_eg: [0, 3, 7, 2, -5, 0, 3, 2, 0],
    rank_mg: [
        0, 3, -6, 1, 3, 5, 9, 0, 0, 0, 8, -1, -4, -4, 1, 18, 17, 6, 0, 0, -3, 18, -2, -10, 15, 2, -58, -20, 0, 0, 10,
        -11, -12, -26, 30, 62, 7, 30, 0, 0, 7, 20, -2, -15, -16, 33, 4, 35, 0, 0, -6, 1, 9, 0, 0, -8, 4, -5, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ],
    rank_eg: [
        0, 1, 2, -5, 1, 2, 20, 0, 0, 0, -18, 6, -2, -6, -9, -11, -12, -22, 0, 0, -42, -18, 5, 9, 0, -6, 1, -10, 0, 0,
        -12, -3, -5, 7, 5, 1, -12, 19, 0, 0, -133, -96, -56, 34, 18, 9, 20, -2, 0, 0, -12, 12, 6, -6, -19, -4, 25, -18,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ],
    file_mg: [
        -13, 0, 0, -1, 0, 1, 3, -3, 0, 0, -1, 11, 9, 3, 0, -7, -6, 22, -3, 0, -13, -15, -12, 3, 0, -42, 0, 3, 4, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ],
    file_eg: [
        6, -2, 5, 1, 0, -3, -8, -3, -4, 0, -15, -5, 0, 3, 0, 0, 2, -9, -4, 0, -5, -1, 13, -20, 0, -13, 1, 9, -6, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ],
    pawn_shelter: -2,
    king_attack_units: [1, -2, 1, 1, 4, 0, 4, 4, 1],
    king_danger_div: 3,
    king_danger_cap: 550,
    doubled_pawn: (18, 13),
    isolated_pawn: (9, 13),
    passed_pawn: [0, -4, 17, 20, 67, 133, 205, 140, 150],
    bishop_pair: (86, 34),
    rook_open_file: (86, -26),
    rook_semi_open_file: (27, 21),
    threat_by_pawn: (84, 18),
    threat_by_lesser: (74, 42),
    hanging: (4, 50),
    pawn_connected: (10, 1),
    rook_seventh: (71, 0),
    outpost: (45, 9),
    king_attackers: 17,
    king_open_file: 24,
    safe_check: 46,
    king_ring_weak: 3,
    pawn_storm: 15,
    passed_king_distance: 52,
    tempo: 39,
    atomic_exposed_attacked: 0,
    atomic_exposed: 0,
    atomic_kings_touch: 0,
    launch_threat_to_move: 0,
    launch_threat_waiting: 0,
    shield_piece: 0,
    missile_castle_ready: 0,
    radiation_near_king: 0,
};

/// The hand-set weights the fitted tables started from; Capatomic (which no other engine can label) still
/// uses them.
const HAND_PARAMS: EvalParams = EvalParams {
    material_mg: [85, 320, 335, 480, 930, 0, 800, 850, 400],
    material_eg: [105, 290, 320, 520, 960, 0, 820, 900, 380],
    phase: [0, 1, 1, 2, 4, 0, 3, 3, 1],
    center_mg: [0, 6, 3, 0, 1, 0, 3, 2, 1],
    center_eg: [0, 4, 3, 1, 3, 8, 3, 3, 2],
    king_advance_mg: 18,
    king_center_file_mg: 14,
    pawn_advance: (2, 9),
    mobility: [0, 4, 4, 2, 1, 0, 3, 2, 0],
    mobility_eg: [0, 4, 4, 2, 1, 0, 3, 2, 0],
    rank_mg: [0; 90],
    rank_eg: [0; 90],
    file_mg: [0; 45],
    file_eg: [0; 45],
    pawn_shelter: 12,
    king_attack_units: [1, 2, 2, 3, 5, 0, 4, 4, 1],
    king_danger_div: 3,
    king_danger_cap: 500,
    doubled_pawn: (10, 20),
    isolated_pawn: (12, 15),
    passed_pawn: [0, 5, 10, 20, 35, 60, 95, 140, 150],
    bishop_pair: (30, 50),
    rook_open_file: (30, 12),
    rook_semi_open_file: (14, 6),
    threat_by_pawn: (55, 40),
    threat_by_lesser: (35, 25),
    hanging: (25, 15),
    passed_king_distance: 5,
    tempo: 12,
    pawn_connected: (0, 0),
    rook_seventh: (0, 0),
    outpost: (0, 0),
    king_attackers: 0,
    king_open_file: 0,
    safe_check: 0,
    king_ring_weak: 0,
    pawn_storm: 0,
    atomic_exposed_attacked: 0,
    atomic_exposed: 0,
    atomic_kings_touch: 0,
    launch_threat_to_move: 0,
    launch_threat_waiting: 0,
    shield_piece: 0,
    missile_castle_ready: 0,
    radiation_near_king: 0,
};

/// Atomic chess: pieces are bombs; knights and pawns matter relatively more, kings hide less.
pub static ATOMIC: EvalParams = EvalParams {
    material_mg: [212, 216, 356, 330, 816, 0, 800, 850, 400],
    material_eg: [194, 286, 288, 536, 978, 0, 820, 900, 380],
    phase: [0, 1, 1, 2, 4, 0, 3, 3, 1],
    center_mg: [-13, 48, -18, -15, -29, -49, 3, 2, 1],
    center_eg: [-5, 22, 17, 21, 72, 33, 3, 3, 2],
    king_advance_mg: 125,
    king_center_file_mg: 41,
    pawn_advance: (13, 18),
    mobility: [0, 11, 28, 18, 18, 0, 3, 2, 0],
    mobility_eg: [0, 11, 28, 18, 18, 0, 3, 2, 0],
    rank_mg: [0; 90],
    rank_eg: [0; 90],
    file_mg: [0; 45],
    file_eg: [0; 45],
    pawn_shelter: -3,
    king_attack_units: [1, 2, 2, 2, 3, 0, 3, 3, 1],
    king_danger_div: 3,
    king_danger_cap: 500,
    doubled_pawn: (10, 20),
    isolated_pawn: (-8, -11),
    passed_pawn: [-30, -37, 0, 20, 100, 144, 245, 140, 150],
    bishop_pair: (63, -45),
    rook_open_file: (377, 20),
    rook_semi_open_file: (40, 44),
    threat_by_pawn: (95, 70),
    threat_by_lesser: (162, 115),
    hanging: (-41, -7),
    pawn_connected: (19, 0),
    rook_seventh: (621, 114),
    outpost: (81, -54),
    king_attackers: 0,
    king_open_file: 15,
    safe_check: 0,
    king_ring_weak: 0,
    pawn_storm: 0,
    passed_king_distance: 7,
    tempo: 122,
    atomic_exposed_attacked: 138,
    atomic_exposed: 32,
    atomic_kings_touch: -63,
    launch_threat_to_move: 0,
    launch_threat_waiting: 0,
    shield_piece: 0,
    missile_castle_ready: 0,
    radiation_near_king: 0,
};

/// The 10×8 Capablanca family (Capablanca, Capablanca Random, Capablanca Relocation, Stone's Chess).
pub static CAPABLANCA: EvalParams = EvalParams {
    material_mg: [67, 284, 335, 462, 1038, 0, 776, 838, 400],
    material_eg: [105, 290, 320, 520, 960, 0, 820, 900, 380],
    phase: [0, 1, 1, 2, 4, 0, 3, 3, 1],
    center_mg: [6, 14, 3, 6, -7, -18, 5, 5, 1],
    center_eg: [-4, 1, 2, 6, 17, -9, 15, 15, 2],
    king_advance_mg: 13,
    king_center_file_mg: 29,
    pawn_advance: (0, 5),
    mobility: [0, 11, 12, 9, 5, 0, 6, 3, 0],
    mobility_eg: [0, 5, 4, 3, 10, 0, 6, 9, 0],
    rank_mg: [
        0, 2, -6, 2, 2, 25, -117, 0, 0, 0, 7, 0, -4, 3, 9, 33, 6, 6, 0, 0, 6, 14, -8, 5, -20, 6, -75, -18, 0, 0, 0,
        -18, -17, -1, 12, 51, -1, 65, 0, 0, 24, 24, -15, -64, -31, 52, -12, 56, 0, 0, 0, 0, -24, -2, 8, -3, 132, 2, 0,
        0, 16, 22, 1, -4, -10, 115, 20, -63, 0, 0, 14, 10, -2, -1, -33, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ],
    rank_eg: [
        0, 0, -10, -11, 7, -6, 22, 0, 0, 0, -48, -9, -1, 1, 11, 1, 13, -65, 0, 0, -29, 0, 39, 16, 4, -22, -5, 7, 0, 0,
        -12, 0, 10, 30, 5, 10, -3, 56, 0, 0, -63, -40, -2, 65, 5, -2, 72, 6, 0, 0, -60, -10, 24, 17, 1, 24, 41, -99, 0,
        0, -61, -8, -4, 81, 111, -22, 22, 0, 0, 0, -79, -80, -15, 9, 73, 11, 18, 213, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0,
    ],
    file_mg: [
        -9, -5, 7, 2, -1, -5, 3, 8, -1, -9, -11, 11, 4, 0, -2, -3, 0, -5, 6, -3, -7, -4, 2, -1, 0, -73, 13, 3, 1, 0,
        -2, -9, 0, 2, 2, 10, -8, 1, -3, 5, 0, 0, 0, 0, 0,
    ],
    file_eg: [
        -8, 0, 0, 0, 2, -8, -3, -3, -2, 4, -8, -30, 11, 0, 0, 0, 13, 12, -12, -3, -1, 2, 0, -2, -2, -2, 6, 0, 0, 0, -2,
        3, 0, 2, 1, -1, 0, 3, 0, -14, 0, 0, 0, 0, 0,
    ],
    pawn_shelter: 4,
    king_attack_units: [1, 5, 3, 5, 5, 0, 5, 5, 1],
    king_danger_div: 3,
    king_danger_cap: 365,
    doubled_pawn: (16, 10),
    isolated_pawn: (12, 6),
    passed_pawn: [1, 0, 27, 20, 62, 148, 239, 140, 150],
    bishop_pair: (64, 46),
    rook_open_file: (37, 11),
    rook_semi_open_file: (5, 33),
    threat_by_pawn: (102, 47),
    threat_by_lesser: (104, 71),
    hanging: (39, 44),
    pawn_connected: (9, 6),
    rook_seventh: (13, 50),
    outpost: (37, 24),
    king_attackers: 4,
    king_open_file: 35,
    safe_check: 66,
    king_ring_weak: 46,
    pawn_storm: 38,
    passed_king_distance: 37,
    tempo: 63,
    atomic_exposed_attacked: 0,
    atomic_exposed: 0,
    atomic_kings_touch: 0,
    launch_threat_to_move: 0,
    launch_threat_waiting: 0,
    shield_piece: 0,
    missile_castle_ready: 0,
    radiation_near_king: 0,
};

/// Capatomic Random Chess: 10×10 with missiles.
pub static CAPATOMIC: EvalParams = EvalParams {
    material_mg: [80, 310, 330, 470, 900, 0, 780, 820, 420],
    material_eg: [100, 290, 320, 510, 940, 0, 800, 880, 380],
    phase: [0, 1, 1, 2, 4, 0, 3, 3, 1],
    launch_threat_to_move: 60,
    launch_threat_waiting: 25,
    shield_piece: 6,
    missile_castle_ready: 15,
    radiation_near_king: 15,
    ..HAND_PARAMS
};

/// The parameter table of a variant: the one of its evaluation family ([`Variant::eval_family`]).
pub fn params_for(variant: &Variant) -> &'static EvalParams {
    match variant.eval_family {
        EvalFamily::Standard => &STANDARD,
        EvalFamily::Capablanca => &CAPABLANCA,
        EvalFamily::Atomic => &ATOMIC,
        EvalFamily::Capatomic => &CAPATOMIC,
    }
}

/// How a field of [`EvalParams`] is written: one number, a pair, or an array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldShape {
    Scalar,
    Pair,
    Array,
}

impl EvalParams {
    /// Calls `f` with each field's name, shape and numbers (pairs as two numbers), in declaration order,
    /// so that a tuner can change any weight and print the table back as Rust.
    pub fn visit_fields(&mut self, f: &mut dyn FnMut(&'static str, FieldShape, &mut [i32])) {
        use FieldShape::*;
        macro_rules! arrays { ($($name:ident),*) => { $( f(stringify!($name), Array, &mut self.$name); )* } }
        macro_rules! scalars {
            ($($name:ident),*) => { $( f(stringify!($name), Scalar, std::slice::from_mut(&mut self.$name)); )* }
        }
        macro_rules! pairs {
            ($($name:ident),*) => { $(
                let mut two = [self.$name.0, self.$name.1];
                f(stringify!($name), Pair, &mut two);
                self.$name = (two[0], two[1]);
            )* }
        }
        arrays!(material_mg, material_eg, phase, center_mg, center_eg);
        scalars!(king_advance_mg, king_center_file_mg);
        pairs!(pawn_advance);
        arrays!(mobility, mobility_eg, rank_mg, rank_eg, file_mg, file_eg);
        scalars!(pawn_shelter);
        arrays!(king_attack_units);
        scalars!(king_danger_div, king_danger_cap);
        pairs!(doubled_pawn, isolated_pawn);
        arrays!(passed_pawn);
        pairs!(bishop_pair, rook_open_file, rook_semi_open_file, threat_by_pawn, threat_by_lesser, hanging);
        pairs!(pawn_connected, rook_seventh, outpost);
        scalars!(king_attackers, king_open_file, safe_check, king_ring_weak, pawn_storm);
        scalars!(
            passed_king_distance,
            tempo,
            atomic_exposed_attacked,
            atomic_exposed,
            atomic_kings_touch,
            launch_threat_to_move,
            launch_threat_waiting,
            shield_piece,
            missile_castle_ready,
            radiation_near_king
        );
    }

    /// The table as the body of a Rust struct literal (one `field: value,` line each).
    pub fn to_rust(&self) -> String {
        let mut out = String::new();
        self.clone().visit_fields(&mut |name, shape, vals| {
            let list = vals.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ");
            let value = match shape {
                FieldShape::Scalar => list,
                FieldShape::Pair => format!("({list})"),
                FieldShape::Array => format!("[{list}]"),
            };
            out.push_str(&format!("    {name}: {value},\n"));
        });
        out
    }
}

/// Material value (middlegame) of a role, used for move ordering, SEE and launch gains.
#[inline]
pub fn value(params: &EvalParams, role: Role) -> i32 {
    if role == Role::King { 20_000 } else { params.material_mg[role.index()] }
}

fn steps_from_edge(v: &Variant, sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    f.min(v.width as i32 - 1 - f) + r.min(v.height as i32 - 1 - r)
}

fn relative_rank(v: &Variant, color: Color, sq: Square) -> i32 {
    v.relative_rank(color, sq.rank()) as i32
}

/// Squares strictly ahead of rank `rank` for `color` (all files).
const fn ahead_of_rank(color: Color, rank: u32) -> Bitboard {
    match color {
        Color::White => Bitboard(Bitboard::FULL.0 & !((1u128 << ((rank + 1) * 10)) - 1)),
        Color::Black => Bitboard((1u128 << (rank * 10)) - 1),
    }
}

/// Squares strictly ahead of `sq` for `color` (all files).
#[inline]
fn ahead(color: Color, sq: Square) -> Bitboard {
    AHEAD[color.index()][sq.rank() as usize]
}

const FILES: [Bitboard; 10] = {
    let mut f = [Bitboard::EMPTY; 10];
    let mut i = 0;
    while i < 10 {
        f[i] = Bitboard::file(i as u8);
        i += 1;
    }
    f
};

/// The files beside each file of the 10×10 grid. Only pieces are ever looked up in them, and no piece
/// stands off a smaller board, so they serve every board width.
const ADJACENT_FILES: [Bitboard; 10] = {
    let mut f = [Bitboard::EMPTY; 10];
    let mut i = 0;
    while i < 10 {
        if i > 0 {
            f[i].0 |= FILES[i - 1].0;
        }
        if i + 1 < 10 {
            f[i].0 |= FILES[i + 1].0;
        }
        i += 1;
    }
    f
};

/// [`ahead_of_rank`] by colour and rank.
static AHEAD: [[Bitboard; 10]; 2] = {
    let mut t = [[Bitboard::EMPTY; 10]; 2];
    let mut r = 0;
    while r < 10 {
        t[0][r] = ahead_of_rank(Color::White, r as u32);
        t[1][r] = ahead_of_rank(Color::Black, r as u32);
        r += 1;
    }
    t
};

/// By colour and square: the squares ahead on the square's file (an own pawn there doubles a pawn), and
/// ahead on it and the files beside it (an enemy pawn there keeps a pawn from being passed).
static FRONT_SPAN: [[Bitboard; 100]; 2] = spans(false);
static PASSED_SPAN: [[Bitboard; 100]; 2] = spans(true);

const fn spans(beside: bool) -> [[Bitboard; 100]; 2] {
    let mut t = [[Bitboard::EMPTY; 100]; 2];
    let mut i = 0;
    while i < 100 {
        let files = if beside { FILES[i % 10].0 | ADJACENT_FILES[i % 10].0 } else { FILES[i % 10].0 };
        t[0][i] = Bitboard(files & ahead_of_rank(Color::White, (i / 10) as u32).0);
        t[1][i] = Bitboard(files & ahead_of_rank(Color::Black, (i / 10) as u32).0);
        i += 1;
    }
    t
}

/// By colour and square of a king: the squares on its file and the files beside it, ahead of it by one
/// or two ranks (where its own pawns shelter it) and by one to three ranks (where enemy pawns storm it).
static SHELTER_ZONE: [[Bitboard; 100]; 2] = king_fronts(2);
static STORM_ZONE: [[Bitboard; 100]; 2] = king_fronts(3);

const fn king_fronts(ranks: u32) -> [[Bitboard; 100]; 2] {
    let mut t = [[Bitboard::EMPTY; 100]; 2];
    let mut i = 0;
    while i < 100 {
        let files = FILES[i % 10].0 | ADJACENT_FILES[i % 10].0;
        let rank = (i / 10) as u32;
        let mut near = 0u128;
        let mut r = 0u32;
        while r < 10 {
            if r.abs_diff(rank) <= ranks {
                near |= Bitboard::rank(r as u8).0;
            }
            r += 1;
        }
        t[0][i] = Bitboard(files & near & ahead_of_rank(Color::White, rank).0);
        t[1][i] = Bitboard(files & near & ahead_of_rank(Color::Black, rank).0);
        i += 1;
    }
    t
}

#[inline]
fn file_mask(file: u8) -> Bitboard {
    FILES[file as usize]
}

#[inline]
fn adjacent_files(file: u8) -> Bitboard {
    ADJACENT_FILES[file as usize]
}

/// Squares a piece attacks (the rules engine's pattern, masked with the board computed once per evaluation).
#[inline]
fn piece_attacks(role: Role, color: Color, sq: Square, blockers: Bitboard, board: Bitboard) -> Bitboard {
    crate::rules::attacks::piece_attacks(color, role, sq, blockers) & board
}

/// Everything computed for one side.
struct Side {
    mg: i32,
    eg: i32,
    phase: i32,
    material: i32,
    /// Squares attacked by this side: by pawns, by minor pieces (knights, bishops, missiles), by rooks,
    /// by anything.
    att_pawn: Bitboard,
    att_minor: Bitboard,
    att_rook: Bitboard,
    att_all: Bitboard,
    /// Squares attacked by this side's pieces other than the king (pawns included).
    att_pieces: Bitboard,
    /// Squares reached by pieces that move like a knight, along diagonals, along ranks and files: a piece
    /// arriving there checks a king a knight's move, a diagonal or a straight line away.
    att_leap: Bitboard,
    att_diag: Bitboard,
    att_line: Bitboard,
}

/// The evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, params_for(pos.variant()))
}

/// The evaluation of `pos` for the side to move, with the weights `p` (for tuning).
pub fn evaluate_with(pos: &Position, p: &EvalParams) -> i32 {
    evaluate_on(pos, p, None, None)
}

/// The evaluation of one variant's positions with its own weights, the terms that depend on nothing but
/// a piece and its square added up once for every square (a search builds one for its variant and
/// evaluates each position with it; the scores are [`evaluate`]'s).
pub struct Evaluator {
    variant: &'static Variant,
    params: &'static EvalParams,
    /// [`square_terms`] (middlegame, endgame) by colour, role and square; zero off the board.
    terms: Box<[(i32, i32)]>,
    /// Whether this processor counts and finds set bits in one instruction each ([`fast_bits`]).
    fast_bits: bool,
    /// The pawn terms of the pawn structures met so far.
    pawns: PawnCache,
    /// The evaluations of the positions met so far.
    scores: ScoreCache,
}

/// An [`Evaluator`]'s memory of whole evaluations, by the position's hash ([`Position::hash`], which
/// covers everything the evaluation reads: the pieces, the side to move, castling and missile rights,
/// radiation and the armed flag). A search meets most positions again (each iteration of its deepening
/// walks the last one's leaves; the quiescence search's stand-pats are not kept in the transposition
/// table), and an evaluation costs thousands of instructions where a lookup costs one read.
///
/// Each entry is one word: the hash's upper 48 bits and the score's 16; the entry's place is the hash's
/// lower bits, so a hit matches all 64 (as the transposition table's entries do). A score outside
/// `i16` is not kept; an empty entry (0) matches no hash, as no entry is written with upper bits and
/// score all zero that could be told from it.
struct ScoreCache {
    entries: Box<[u64]>,
}

/// A score cache holds 2^16 evaluations (512 KB).
const SCORE_CACHE_BITS: u32 = 16;

impl ScoreCache {
    fn new() -> ScoreCache {
        ScoreCache { entries: vec![0; 1 << SCORE_CACHE_BITS].into_boxed_slice() }
    }

    /// Where `hash`'s entry lives: its lower 16 bits.
    #[inline(always)]
    fn index(hash: u64) -> usize {
        hash as usize & ((1 << SCORE_CACHE_BITS) - 1)
    }

    /// The score kept for `hash`, if any.
    #[inline(always)]
    fn get(&self, hash: u64) -> Option<i32> {
        let e = self.entries[Self::index(hash)];
        (e != 0 && e >> 16 == hash >> 16).then_some(e as u16 as i16 as i32)
    }

    #[inline(always)]
    fn put(&mut self, hash: u64, score: i32) {
        if let Ok(s) = i16::try_from(score) {
            self.entries[Self::index(hash)] = (hash & !0xFFFF) | s as u16 as u64;
        }
    }
}

impl Evaluator {
    pub fn new(variant: &'static Variant) -> Evaluator {
        let params = params_for(variant);
        let mut terms = vec![(0, 0); 2 * Role::COUNT * Square::COUNT].into_boxed_slice();
        for color in Color::ALL {
            for role in Role::ALL {
                for i in 0..Square::COUNT {
                    let sq = Square::from_index(i);
                    if variant.contains(sq) {
                        terms[term_index(color, role, sq)] = square_terms(variant, params, color, role, sq);
                    }
                }
            }
        }
        Evaluator { variant, params, terms, fast_bits: fast_bits(), pawns: PawnCache::new(), scores: ScoreCache::new() }
    }

    /// [`evaluate`] of a position of this evaluator's variant.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        debug_assert!(
            std::ptr::eq(pos.variant(), self.variant),
            "{} evaluated as {}",
            pos.variant().name,
            self.variant.name
        );
        let hash = pos.hash();
        if let Some(score) = self.scores.get(hash) {
            return score;
        }
        let score = self.evaluate_afresh(pos);
        self.scores.put(hash, score);
        score
    }

    /// [`Self::evaluate`] without the score cache.
    #[inline]
    fn evaluate_afresh(&mut self, pos: &Position) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.fast_bits {
            // SAFETY: `fast_bits` is true only where the processor has the instructions that
            // `evaluate_fast_bits` is compiled for (`fast_bits()`, asked at construction).
            return unsafe { evaluate_fast_bits(pos, self.params, &self.terms, &mut self.pawns) };
        }
        evaluate_on(pos, self.params, Some(&self.terms), Some(&mut self.pawns))
    }

    /// The weights it evaluates with.
    pub fn params(&self) -> &'static EvalParams {
        self.params
    }

    /// The variant whose positions it evaluates.
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }
}

/// Whether the processor has `popcnt`, `tzcnt` and `lzcnt` (x86-64 processors since about 2013). The
/// evaluation counts and walks 128-bit sets of squares everywhere; the build targets the x86-64 baseline,
/// where a count takes some twenty instructions per half, so an [`Evaluator`] runs a second copy of the
/// evaluation compiled for these instructions where they exist (the same arithmetic, the same scores).
fn fast_bits() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// [`evaluate_on`] compiled for [`fast_bits`]'s instructions: what it calls is inlined
/// (`#[inline(always)]`) so that it, too, is compiled for them, but for each side's terms, the bulk of
/// the code, which is one function called twice ([`eval_side_fast_bits`]), so that the processor's
/// instruction cache holds a single copy. Only for processors that have the instructions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,lzcnt")]
fn evaluate_fast_bits(pos: &Position, p: &EvalParams, terms: &[(i32, i32)], pawns: &mut PawnCache) -> i32 {
    let (pawn_att, pawn) = pawn_inputs(pos, p, Some(terms), Some(pawns));
    let white = eval_side_fast_bits(pos, p, Color::White, pawn_att, terms, &pawn);
    let black = eval_side_fast_bits(pos, p, Color::Black, pawn_att, terms, &pawn);
    combine(pos, p, &white, &black)
}

/// [`eval_side`] compiled for [`fast_bits`]'s instructions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,lzcnt")]
#[inline(never)]
fn eval_side_fast_bits(
    pos: &Position,
    p: &EvalParams,
    us: Color,
    pawn_att: [Bitboard; 2],
    terms: &[(i32, i32)],
    pawn: &PawnTerms,
) -> Side {
    eval_side(pos, p, us, pawn_att, Some(terms), pawn_side(pos, p, us, pawn))
}

/// The terms that depend on nothing but both sides' pawns on one variant's board: doubled, isolated,
/// passed and connected pawns and each pawn's [`square_terms`] (middlegame, endgame, per side), all but
/// the passed pawns' king distances, which [`passed_pawn_kings`] adds per position from `passed`.
#[derive(Clone, Copy, Default)]
struct PawnTerms {
    /// White's and Black's pawns: what the terms were computed from.
    pawns: [Bitboard; 2],
    mg: [i32; 2],
    eg: [i32; 2],
    /// Each side's passed pawns.
    passed: [Bitboard; 2],
}

/// An [`Evaluator`]'s memory of pawn structures: most positions of a search share their pawns with
/// many others. An entry is looked up by a hash of the pawns and used only if its pawns are the same,
/// so it gives exactly [`pawn_terms`]'s answer; an entry never written (no pawns, zeros) is that answer
/// for no pawns.
struct PawnCache {
    entries: Box<[PawnTerms]>,
}

/// A pawn cache holds 2^12 structures (320 KB).
const PAWN_CACHE_BITS: u32 = 12;

impl PawnCache {
    fn new() -> PawnCache {
        PawnCache { entries: vec![PawnTerms::default(); 1 << PAWN_CACHE_BITS].into_boxed_slice() }
    }

    /// [`pawn_terms`] of `pos`, from memory when its pawns were met before.
    #[inline(always)]
    fn terms(
        &mut self,
        pos: &Position,
        p: &EvalParams,
        pawn_att: [Bitboard; 2],
        terms: Option<&[(i32, i32)]>,
    ) -> PawnTerms {
        let pawns = [pos.pieces(Color::White, Role::Pawn), pos.pieces(Color::Black, Role::Pawn)];
        let fold = |b: Bitboard| b.0 as u64 ^ (b.0 >> 64) as u64;
        let hash =
            fold(pawns[0]).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ fold(pawns[1]).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        let entry = &mut self.entries[(hash >> (64 - PAWN_CACHE_BITS)) as usize];
        if entry.pawns != pawns {
            *entry = pawn_terms(pos, p, pawn_att, terms);
        }
        *entry
    }
}

#[inline]
fn term_index(color: Color, role: Role, sq: Square) -> usize {
    (color.index() * Role::COUNT + role.index()) * Square::COUNT + sq.index()
}

/// The terms of a piece of `us` on `sq` that depend on nothing else: material, centralisation, the rank
/// and file tables, a pawn's advance and a king's (middlegame, endgame). `sq` must be on the board.
fn square_terms(v: &Variant, p: &EvalParams, us: Color, role: Role, sq: Square) -> (i32, i32) {
    let ri = role.index();
    let centre = steps_from_edge(v, sq);
    let rank = ri * 10 + relative_rank(v, us, sq) as usize;
    let f = sq.file() as usize;
    let file = ri * 5 + f.min(v.width as usize - 1 - f);
    let mut mg = p.material_mg[ri] + p.center_mg[ri] * centre + p.rank_mg[rank] + p.file_mg[file];
    let mut eg = p.material_eg[ri] + p.center_eg[ri] * centre + p.rank_eg[rank] + p.file_eg[file];
    match role {
        Role::Pawn => {
            let adv = relative_rank(v, us, sq) - v.pawn_rank as i32;
            mg += p.pawn_advance.0 * adv;
            eg += p.pawn_advance.1 * adv;
        }
        Role::King => {
            let adv = relative_rank(v, us, sq) - v.castling_rank as i32;
            mg -= p.king_advance_mg * adv.max(0);
        }
        _ => {}
    }
    (mg, eg)
}

/// Squares attacked by pawns of `color` on `pawns` (the 10×10 grid's pattern, as [`crate::rules::attacks::pawn_attacks`]).
#[inline(always)]
fn pawn_attack_set(color: Color, pawns: Bitboard) -> Bitboard {
    let left = (pawns & !FILES[0]).0;
    let right = (pawns & !FILES[9]).0;
    let bb = match color {
        Color::White => (left << 9) | (right << 11),
        Color::Black => (left >> 11) | (right >> 9),
    };
    Bitboard(bb & Bitboard::FULL.0)
}

/// [`evaluate_with`], the square terms read from `terms` when given (an [`Evaluator`]'s for `p`), and the
/// pawn terms from `pawns` (the same evaluator's).
#[inline(always)]
fn evaluate_on(pos: &Position, p: &EvalParams, terms: Option<&[(i32, i32)]>, pawns: Option<&mut PawnCache>) -> i32 {
    let (pawn_att, pawn) = pawn_inputs(pos, p, terms, pawns);
    let white = eval_side_once(pos, p, Color::White, pawn_att, terms, &pawn);
    let black = eval_side_once(pos, p, Color::Black, pawn_att, terms, &pawn);
    combine(pos, p, &white, &black)
}

/// [`eval_side`] as one function for both sides (one copy of its code).
#[inline(never)]
fn eval_side_once(
    pos: &Position,
    p: &EvalParams,
    us: Color,
    pawn_att: [Bitboard; 2],
    terms: Option<&[(i32, i32)]>,
    pawn: &PawnTerms,
) -> Side {
    eval_side(pos, p, us, pawn_att, terms, pawn_side(pos, p, us, pawn))
}

/// The squares each side's pawns attack, and the pawn terms (from `pawns` when given).
#[inline(always)]
fn pawn_inputs(
    pos: &Position,
    p: &EvalParams,
    terms: Option<&[(i32, i32)]>,
    pawns: Option<&mut PawnCache>,
) -> ([Bitboard; 2], PawnTerms) {
    let pawn_att = [
        pawn_attack_set(Color::White, pos.pieces(Color::White, Role::Pawn)),
        pawn_attack_set(Color::Black, pos.pieces(Color::Black, Role::Pawn)),
    ];
    let pawn = match pawns {
        Some(cache) => cache.terms(pos, p, pawn_att, terms),
        None => pawn_terms(pos, p, pawn_att, terms),
    };
    (pawn_att, pawn)
}

/// The score for the side to move from both sides' terms: threats, king danger, the game phase's blend
/// of middlegame and endgame, the variants' own terms.
#[inline(always)]
fn combine(pos: &Position, p: &EvalParams, white: &Side, black: &Side) -> i32 {
    let v = pos.variant();
    let (twm, twe) = threats(pos, p, Color::White, white, black);
    let (tbm, tbe) = threats(pos, p, Color::Black, black, white);
    let mut mg = white.mg - black.mg + twm - tbm;
    if !v.atomic && (p.safe_check != 0 || p.king_ring_weak != 0 || p.pawn_storm != 0) {
        mg += king_danger(pos, p, Color::White, white, black) - king_danger(pos, p, Color::Black, black, white);
    }
    let mut eg = white.eg - black.eg + twe - tbe;
    if v.atomic {
        let touch = atomic_kings_touch(pos, p, white.material - black.material);
        mg += touch;
        eg += touch;
    }
    let full_phase = start_phase(v, p);
    let phase = (white.phase + black.phase).min(full_phase);
    let mut score = (mg * phase + eg * (full_phase - phase)) / full_phase.max(1);
    if v.missiles {
        score += launch_threats(pos, p);
    }
    let stm = if pos.turn() == Color::White { score } else { -score };
    stm + p.tempo
}

fn start_phase(v: &Variant, p: &EvalParams) -> i32 {
    // Two of each minor and rook, one queen per side on 8 files; the 10-file arrays add A and C (or two A).
    let base = 2 * (2 * p.phase[N] + 2 * p.phase[B] + 2 * p.phase[R] + p.phase[Q]);
    if v.width >= 10 { base + 2 * (p.phase[A] + p.phase[C]) } else { base }
}

/// One side's terms; `pawn_att`: the squares each side's pawns attack ([`pawn_attack_set`]); `pawn`: its
/// pawn structure's terms ([`pawn_side`]).
#[inline(always)]
fn eval_side(
    pos: &Position,
    p: &EvalParams,
    us: Color,
    pawn_att: [Bitboard; 2],
    terms: Option<&[(i32, i32)]>,
    pawn: (i32, i32),
) -> Side {
    let v = pos.variant();
    let them = us.other();
    let own = pos.by_color(us);
    let enemy_pawn_attacks = pawn_att[them.index()];
    let enemy_king_zone = pos.king(them).map(|k| king_attacks(k) | Bitboard::from_square(k)).unwrap_or_default();
    let mut mg = 0;
    let mut eg = 0;
    let mut phase = 0;
    let mut material = 0;
    let mut danger_units = 0;
    let mut attackers = 0;
    let own_pawns = pos.pieces(us, Role::Pawn);
    let all_pawns = pos.by_role(Role::Pawn);
    let att_pawn = pawn_att[us.index()] & v.board();
    let (mut att_minor, mut att_rook, mut att_all) = (Bitboard::EMPTY, Bitboard::EMPTY, att_pawn);
    let (mut att_leap, mut att_diag, mut att_line, mut att_king) =
        (Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY);
    let blockers = pos.occupied() | pos.irradiated();
    let board = v.board();
    // Role by role rather than piece by piece: a `match` on each piece's role was a jump the processor
    // mispredicted most of the time (about 80 % of the search's mispredicted indirect jumps, by
    // callgrind's branch simulation). The body below is written once per role (a macro, so that it is
    // compiled wherever the evaluation is), with the role a constant in each copy.
    macro_rules! role_terms {
        ($role:expr) => {{
            let role: Role = $role;
            let ri = role.index();
            let pieces = own & pos.by_role(role);
            if pieces.any() {
                let n = pieces.count() as i32;
                material += p.material_mg[ri] * n;
                phase += p.phase[ri] * n;
            }
            // The pawns' square terms come with the pawn structure's (`pawn`).
            let pieces = if role == Role::Pawn { Bitboard::EMPTY } else { pieces };
            for sq in pieces {
                let (smg, seg) = match terms {
                    Some(t) => t[term_index(us, role, sq)],
                    None => square_terms(v, p, us, role, sq),
                };
                mg += smg;
                eg += seg;
                if role == Role::King {
                    let f = sq.file() as i32;
                    let mut steps = f.min(v.width as i32 - 1 - f);
                    if (pos.castling_rooks() & own).any() {
                        // Still free to castle: counted as if castled, so walking the king loses by it.
                        steps = steps.min(1);
                    }
                    mg -= p.king_center_file_mg * steps;
                    if !v.atomic {
                        att_king = king_attacks(sq) & board;
                    }
                    continue;
                }
                let att = piece_attacks(role, us, sq, blockers, board);
                att_all |= att;
                if matches!(role, Role::Knight | Role::Bishop | Role::Missile) {
                    att_minor |= att;
                }
                if role == Role::Rook {
                    att_rook |= att;
                }
                if matches!(role, Role::Knight | Role::Archbishop | Role::Chancellor) {
                    att_leap |= att;
                }
                if matches!(role, Role::Bishop | Role::Queen | Role::Archbishop) {
                    att_diag |= att;
                }
                if matches!(role, Role::Rook | Role::Queen | Role::Chancellor) {
                    att_line |= att;
                }
                if matches!(role, Role::Knight | Role::Bishop)
                    && att_pawn.contains(sq)
                    && 2 * relative_rank(v, us, sq) >= v.height as i32 - 2
                    && relative_rank(v, us, sq) <= v.height as i32 - 3
                    && (pos.pieces(them, Role::Pawn) & adjacent_files(sq.file()) & ahead(us, sq)).is_empty()
                {
                    mg += p.outpost.0;
                    eg += p.outpost.1;
                }
                if matches!(role, Role::Rook | Role::Chancellor) {
                    if relative_rank(v, us, sq) == v.height as i32 - 2 {
                        mg += p.rook_seventh.0;
                        eg += p.rook_seventh.1;
                    }
                    let file = file_mask(sq.file());
                    if (all_pawns & file).is_empty() {
                        mg += p.rook_open_file.0;
                        eg += p.rook_open_file.1;
                    } else if (own_pawns & file).is_empty() {
                        mg += p.rook_semi_open_file.0;
                        eg += p.rook_semi_open_file.1;
                    }
                }
                let mob = (att & !own & !enemy_pawn_attacks).count() as i32;
                mg += p.mobility[ri] * mob;
                eg += p.mobility_eg[ri] * mob;
                let on_zone = att & enemy_king_zone;
                if on_zone.any() {
                    let hits = on_zone.count() as i32;
                    danger_units += hits * p.king_attack_units[ri];
                    attackers += 1;
                }
            }
        }};
    }
    role_terms!(Role::Pawn);
    role_terms!(Role::Knight);
    role_terms!(Role::Bishop);
    role_terms!(Role::Rook);
    role_terms!(Role::Queen);
    role_terms!(Role::King);
    role_terms!(Role::Archbishop);
    role_terms!(Role::Chancellor);
    role_terms!(Role::Missile);
    // Attacks on the enemy king zone: only when at least two pieces join in.
    if attackers >= 2 && !v.atomic {
        mg += (danger_units * danger_units / p.king_danger_div.max(1)).min(p.king_danger_cap);
        mg += p.king_attackers * attackers;
    }
    mg += pawn.0;
    eg += pawn.1;
    if pos.pieces(us, Role::Bishop).count() >= 2 {
        mg += p.bishop_pair.0;
        eg += p.bishop_pair.1;
    }
    if let Some(k) = pos.king(us) {
        // Pawn shelter in front of the king.
        let near = (own_pawns & SHELTER_ZONE[us.index()][k.index()]).count() as i32;
        mg += p.pawn_shelter * near;
        if (own_pawns & file_mask(k.file())).is_empty() {
            mg -= p.king_open_file;
        }
        if v.atomic {
            let fuse = king_attacks(k) & own;
            for sq in fuse {
                mg -= p.atomic_exposed;
                if (pos.attackers_to(sq, them, pos.occupied()) & !pos.pieces(them, Role::King)).any() {
                    mg -= p.atomic_exposed_attacked;
                    eg -= p.atomic_exposed_attacked;
                }
            }
        }
        if v.missiles {
            let zone = king_attacks(k);
            let rad = (zone & pos.irradiated()).count() as i32;
            mg -= p.radiation_near_king * rad;
            let shielded = zone & own & !pos.pieces(us, Role::Pawn);
            mg += p.shield_piece * shielded.count() as i32;
        }
    }
    if v.missiles {
        let ready = pos.missile_rights() & pos.pieces(us, Role::Missile);
        mg += p.missile_castle_ready * ready.count() as i32;
    }
    let att_pieces = att_all;
    att_all |= att_king;
    Side { mg, eg, phase, material, att_pawn, att_minor, att_rook, att_all, att_pieces, att_leap, att_diag, att_line }
}

/// Threats by `us` (side `mine`) against the pieces of the other side (`theirs`): pieces attacked by
/// pawns, heavy pieces attacked by lighter ones, and undefended pieces under attack.
#[inline(always)]
fn threats(pos: &Position, p: &EvalParams, us: Color, mine: &Side, theirs: &Side) -> (i32, i32) {
    let them = us.other();
    let pieces = pos.by_color(them) & !pos.by_role(Role::Pawn) & !pos.by_role(Role::King);
    if pieces.is_empty() {
        return (0, 0);
    }
    let minors = pos.by_role(Role::Knight) | pos.by_role(Role::Bishop) | pos.by_role(Role::Missile);
    let heavies = pos.by_role(Role::Queen) | pos.by_role(Role::Archbishop) | pos.by_role(Role::Chancellor);
    let by_pawn = (pieces & mine.att_pawn).count() as i32;
    let by_lesser = ((pieces & !minors & mine.att_minor) | (pieces & heavies & mine.att_rook)).count() as i32;
    let hanging = (pieces & mine.att_all & !theirs.att_all).count() as i32;
    (
        p.threat_by_pawn.0 * by_pawn + p.threat_by_lesser.0 * by_lesser + p.hanging.0 * hanging,
        p.threat_by_pawn.1 * by_pawn + p.threat_by_lesser.1 * by_lesser + p.hanging.1 * hanging,
    )
}

/// The middlegame terms of `us`'s king safety that need both sides' attacks: safe checks, weak squares
/// next to the king, enemy pawns storming it (a positive number is good for `us`).
#[inline(always)]
fn king_danger(pos: &Position, p: &EvalParams, us: Color, mine: &Side, theirs: &Side) -> i32 {
    let Some(k) = pos.king(us) else { return 0 };
    let v = pos.variant();
    let board = v.board();
    let blockers = pos.occupied() | pos.irradiated();
    let them = us.other();
    // The squares a check could come from that nothing of ours guards and no piece of theirs stands on;
    // a slider's lines from the king are traced only where such a square lies on them on an empty board
    // (their squares through blockers are among those, so nothing is lost where none does).
    let open = board & !mine.att_all & !pos.by_color(them);
    let mut checks = knight_attacks(k) & theirs.att_leap & open;
    let diag = theirs.att_diag & open;
    if (bishop_pseudo_attacks(k) & diag).any() {
        checks |= bishop_attacks(k, blockers) & diag;
    }
    let line = theirs.att_line & open;
    if (rook_pseudo_attacks(k) & line).any() {
        checks |= rook_attacks(k, blockers) & line;
    }
    let safe = checks.count() as i32;
    let weak = (king_attacks(k) & board & theirs.att_pieces & !mine.att_pieces).count() as i32;
    let storm = (pos.pieces(them, Role::Pawn) & STORM_ZONE[us.index()][k.index()]).count() as i32;
    -(p.safe_check * safe + p.king_ring_weak * weak + p.pawn_storm * storm)
}

/// Pawns with an own pawn on a neighbouring square of the same rank (pawns stand on the board only).
#[inline(always)]
fn phalanx_pawns(pawns: Bitboard) -> i32 {
    let right_neighbour = (pawns & !FILES[0]).0 >> 1;
    let left_neighbour = (pawns & !FILES[9]).0 << 1;
    (pawns & Bitboard(right_neighbour | left_neighbour)).count() as i32
}

/// Both sides' [`PawnTerms`], the pawns' square terms read from `terms` when given (an [`Evaluator`]'s
/// for `p`).
#[inline(always)]
fn pawn_terms(pos: &Position, p: &EvalParams, pawn_att: [Bitboard; 2], terms: Option<&[(i32, i32)]>) -> PawnTerms {
    let v = pos.variant();
    let mut t = PawnTerms {
        pawns: [pos.pieces(Color::White, Role::Pawn), pos.pieces(Color::Black, Role::Pawn)],
        ..PawnTerms::default()
    };
    for us in Color::ALL {
        let own_pawns = t.pawns[us.index()];
        let connected = (own_pawns & pawn_att[us.index()] & v.board()).count() as i32 + phalanx_pawns(own_pawns);
        let (mut mg, mut eg, passed) = pawn_structure(pos, p, us);
        for sq in own_pawns {
            let (smg, seg) = match terms {
                Some(t) => t[term_index(us, Role::Pawn, sq)],
                None => square_terms(v, p, us, Role::Pawn, sq),
            };
            mg += smg;
            eg += seg;
        }
        t.mg[us.index()] = mg + p.pawn_connected.0 * connected;
        t.eg[us.index()] = eg + p.pawn_connected.1 * connected;
        t.passed[us.index()] = passed;
    }
    t
}

/// The pawn terms of `us` in `pos`: [`PawnTerms`] and its passed pawns' king distances.
#[inline(always)]
fn pawn_side(pos: &Position, p: &EvalParams, us: Color, t: &PawnTerms) -> (i32, i32) {
    (t.mg[us.index()], t.eg[us.index()] + passed_pawn_kings(pos, p, us, t.passed[us.index()]))
}

/// How far a pawn of `us` on `sq` has come, in eighths of the way from its start rank to promotion.
#[inline(always)]
fn advance_eighths(v: &Variant, us: Color, sq: Square) -> usize {
    let start = v.pawn_rank as i32;
    let adv = (relative_rank(v, us, sq) - start).max(0);
    let span = (v.promotion_rank as i32 - start).max(1);
    ((adv * 8) / span).clamp(0, 8) as usize
}

/// Doubled, isolated and passed pawns of `us` (middlegame, endgame), and its passed pawns.
#[inline(always)]
fn pawn_structure(pos: &Position, p: &EvalParams, us: Color) -> (i32, i32, Bitboard) {
    let v = pos.variant();
    let pawns = pos.pieces(us, Role::Pawn);
    let theirs = pos.pieces(us.other(), Role::Pawn);
    let mut mg = 0;
    let mut eg = 0;
    let mut passed = Bitboard::EMPTY;
    for sq in pawns {
        if (pawns & FRONT_SPAN[us.index()][sq.index()]).any() {
            mg -= p.doubled_pawn.0;
            eg -= p.doubled_pawn.1;
        }
        if (pawns & adjacent_files(sq.file())).is_empty() {
            mg -= p.isolated_pawn.0;
            eg -= p.isolated_pawn.1;
        }
        if (theirs & PASSED_SPAN[us.index()][sq.index()]).is_empty() {
            let eighths = advance_eighths(v, us, sq);
            mg += p.passed_pawn[eighths] / 2;
            eg += p.passed_pawn[eighths];
            passed.set(sq);
        }
    }
    (mg, eg, passed)
}

/// Endgame: each passed pawn of `us` gains by how much nearer its stop square our king is than theirs.
#[inline(always)]
fn passed_pawn_kings(pos: &Position, p: &EvalParams, us: Color, passed: Bitboard) -> i32 {
    let (Some(ok), Some(tk)) = (pos.king(us), pos.king(us.other())) else { return 0 };
    let v = pos.variant();
    let dr = if us == Color::White { 1 } else { -1 };
    let mut eg = 0;
    for sq in passed {
        if let Some(stop) = sq.offset(0, dr) {
            let lead = tk.distance(stop) as i32 - ok.distance(stop) as i32;
            eg += p.passed_king_distance * lead * advance_eighths(v, us, sq) as i32 / 8;
        }
    }
    eg
}

#[inline(always)]
fn atomic_kings_touch(pos: &Position, p: &EvalParams, white_minus_black: i32) -> i32 {
    match (pos.king(Color::White), pos.king(Color::Black)) {
        (Some(a), Some(b)) if a.distance(b) <= 1 => {
            if white_minus_black < 0 {
                p.atomic_kings_touch
            } else if white_minus_black > 0 {
                -p.atomic_kings_touch
            } else {
                0
            }
        }
        _ => 0,
    }
}

/// What a launch at `to` would do, for the side `us` launching from `from`: enemy material destroyed
/// minus own material destroyed (the missile itself included).
pub fn launch_gain(pos: &Position, p: &EvalParams, us: Color, from: Square, to: Square) -> i32 {
    let shields = pos.shields();
    let blast = (king_attacks(to) | Bitboard::from_square(to)) & !shields & pos.occupied();
    let mut gain = -value(p, Role::Missile);
    for sq in blast {
        if sq == from {
            continue;
        }
        if let Some(piece) = pos.piece_at(sq) {
            let val = value(p, piece.role);
            gain += if piece.color == us { -val } else { val };
        }
    }
    gain
}

/// Capatomic: credit each side with part of the best launch it has (or will have once armed).
#[inline(always)]
fn launch_threats(pos: &Position, p: &EvalParams) -> i32 {
    if pos.pieces(Color::White, Role::Missile).is_empty() && pos.pieces(Color::Black, Role::Missile).is_empty() {
        return 0;
    }
    let v = pos.variant();
    let shields = pos.shields();
    // Per-square material, White positive; shielded squares count nothing. The 10×10 grid sits in a
    // 12×12 one with an empty border, so that every square has its eight neighbours.
    const W: usize = 12;
    let padded = |sq: Square| (sq.rank() as usize + 1) * W + sq.file() as usize + 1;
    let mut grid = [0i32; W * W];
    let exposed = pos.occupied() & !shields;
    for sq in exposed {
        if let Some(piece) = pos.piece_at(sq) {
            let val = value(p, piece.role);
            grid[padded(sq)] = if piece.color == Color::White { val } else { -val };
        }
    }
    // Sums of three squares along each rank, then of three such sums along each file: the blast's.
    let mut across = [0i32; W * W];
    for i in 1..W * W - 1 {
        across[i] = grid[i - 1] + grid[i] + grid[i + 1];
    }
    let mut best = [0i32; 2];
    // Only targets on or next to an exposed piece destroy anything (elsewhere the sum is 0, where `best`
    // starts).
    let beside = exposed | Bitboard(((exposed & !FILES[9]).0 << 1) | ((exposed & !FILES[0]).0 >> 1));
    let near = Bitboard((beside.0 | beside.0 << 10 | beside.0 >> 10) & Bitboard::FULL.0);
    let targets = v.board() & !shields & !pos.irradiated() & near;
    for to in targets {
        let i = padded(to);
        let sum = across[i - W] + across[i] + across[i + W];
        // White gains `-sum` of black material... sum is white-minus-black destroyed.
        best[0] = best[0].max(-sum);
        best[1] = best[1].max(sum);
    }
    let mut score = 0;
    for color in Color::ALL {
        let missiles = pos.pieces(color, Role::Missile);
        if missiles.is_empty() {
            continue;
        }
        // A missile standing in the blast counts against the gain; approximate by its value once.
        let gain = best[color.index()] - value(p, Role::Missile);
        if gain <= 0 {
            continue;
        }
        let ready = Iterator::any(&mut missiles.into_iter(), |m| !pos.is_attacked(m, color.other()));
        // Before the first capture of a piece nobody can launch: a small, symmetric credit.
        let share = if !ready {
            0
        } else if !pos.armed() {
            p.launch_threat_waiting / 4
        } else if color == pos.turn() {
            p.launch_threat_to_move
        } else {
            p.launch_threat_waiting
        };
        let credit = gain * share / 100;
        score += if color == Color::White { credit } else { -credit };
    }
    score
}

/// Static exchange evaluation of a normal capture or move to `m_to` by the piece on `from` (non-atomic):
/// the material balance of the best capture sequence on that square, for the side to move.
///
/// The pieces attacking `to` are those [`Position::attackers_to`] finds with the pieces taken so far
/// removed from the blockers: the leapers' (knights, kings, missiles, pawns) are found once, and a slider
/// line is traced again only when a piece leaves it (a piece elsewhere blocks none of them).
pub fn see(pos: &Position, p: &EvalParams, from: Square, to: Square) -> i32 {
    let Some(attacker) = pos.piece_at(from) else { return 0 };
    let victim = pos.piece_at(to).map(|x| value(p, x.role)).unwrap_or(0);
    let mut gains = [0i32; 40];
    let mut depth = 0;
    gains[0] = victim;
    let mut occ = pos.occupied() ^ Bitboard::from_square(from);
    let mut on_square = value(p, attacker.role);
    let mut side = pos.turn().other();
    let role = |r: Role| pos.by_role(r);
    let knights = role(Role::Knight) | role(Role::Archbishop) | role(Role::Chancellor);
    let kings = role(Role::King) | role(Role::Missile);
    let rooks = role(Role::Rook) | role(Role::Queen) | role(Role::Chancellor);
    let bishops = role(Role::Bishop) | role(Role::Queen) | role(Role::Archbishop);
    let leapers = (knight_attacks(to) & knights)
        | (king_attacks(to) & kings)
        | (pawn_attacks(Color::Black, to) & pos.pieces(Color::White, Role::Pawn))
        | (pawn_attacks(Color::White, to) & pos.pieces(Color::Black, Role::Pawn));
    let (lines, diagonals) = (rook_pseudo_attacks(to), bishop_pseudo_attacks(to));
    let irradiated = pos.irradiated();
    let on_lines = |occ: Bitboard| {
        if (lines & rooks & occ).any() { rook_attacks(to, occ | irradiated) & rooks } else { Bitboard::EMPTY }
    };
    let on_diagonals = |occ: Bitboard| {
        if (diagonals & bishops & occ).any() { bishop_attacks(to, occ | irradiated) & bishops } else { Bitboard::EMPTY }
    };
    let (mut line_attackers, mut diagonal_attackers) = (on_lines(occ), on_diagonals(occ));
    loop {
        let atts = (leapers | line_attackers | diagonal_attackers) & pos.by_color(side) & occ;
        let Some((sq, role)) = least_valuable(pos, atts) else { break };
        depth += 1;
        if depth >= gains.len() {
            break;
        }
        gains[depth] = on_square - gains[depth - 1];
        occ ^= Bitboard::from_square(sq);
        if lines.contains(sq) {
            line_attackers = on_lines(occ);
        }
        if diagonals.contains(sq) {
            diagonal_attackers = on_diagonals(occ);
        }
        if role == Role::King
            && ((leapers | line_attackers | diagonal_attackers) & pos.by_color(side.other()) & occ).any()
        {
            // The king cannot take into a defended square.
            depth -= 1;
            break;
        }
        on_square = value(p, role);
        side = side.other();
    }
    while depth > 0 {
        gains[depth - 1] = -((-gains[depth - 1]).max(gains[depth]));
        depth -= 1;
    }
    gains[0]
}

fn least_valuable(pos: &Position, atts: Bitboard) -> Option<(Square, Role)> {
    const ORDER: [Role; 9] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Missile,
        Role::Rook,
        Role::Archbishop,
        Role::Chancellor,
        Role::Queen,
        Role::King,
    ];
    // Most exchanges end on a side with no attacker left: answered without asking each role.
    if atts.is_empty() {
        return None;
    }
    for role in ORDER {
        if let Some(sq) = (atts & pos.by_role(role)).first() {
            return Some((sq, role));
        }
    }
    None
}

/// Material (middlegame values) of one side, without the king.
pub fn material(pos: &Position, color: Color) -> i32 {
    let p = params_for(pos.variant());
    pos.by_color(color)
        .into_iter()
        .filter_map(|sq| pos.piece_at(sq))
        .filter(|pc: &Piece| pc.role != Role::King)
        .map(|pc| value(p, pc.role))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;
    use crate::rules::variant;

    /// An [`Evaluator`] scores every position as [`evaluate`] does, in every variant.
    #[test]
    fn the_evaluator_scores_as_evaluate() {
        use crate::rules::{VARIANTS, setups};
        use rand::rngs::StdRng;
        use rand::{RngExt, SeedableRng};
        let mut rng = StdRng::seed_from_u64(46);
        let mut digest = 0xcbf2_9ce4_8422_2325u64;
        let mut n = 0;
        for v in VARIANTS {
            let mut evaluator = Evaluator::new(v);
            for game in 0..6 {
                let mut pos = setups::random_start(v, &mut rng);
                let mut seen = Vec::new();
                for _ in 0..(30 + game * 20) {
                    let e = evaluate(&pos);
                    assert_eq!(evaluator.evaluate(&pos), e, "{pos:?}");
                    seen.push((pos.clone(), e));
                    digest = e.to_le_bytes().iter().fold(digest, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
                    n += 1;
                    let legal = pos.legal_moves();
                    if legal.is_empty() || pos.outcome().is_some() {
                        break;
                    }
                    pos = pos.play(legal[rng.random_range(0..legal.len())]);
                }
                // Met again (now from the evaluator's score cache, but where a later position took
                // the place): the same scores.
                for (pos, e) in &seen {
                    assert_eq!(evaluator.evaluate(pos), *e, "{pos:?} again");
                }
            }
        }
        // The scores of these positions before the evaluator existed (tables of square terms, pawn
        // attacks by shifts, Capatomic's blast sums by rows and files).
        assert_eq!((n, digest), (4694, 0x9387_1b63_309e_1bab));
    }

    /// The score cache gives back what was put for a hash, nothing for another hash in the same place
    /// or an empty place, and keeps no score it cannot hold.
    #[test]
    fn the_score_cache_answers_only_for_its_own_hash() {
        let mut cache = ScoreCache::new();
        let h = 0x1234_5678_9abc_def0u64;
        assert_eq!(cache.get(h), None);
        cache.put(h, -321);
        assert_eq!(cache.get(h), Some(-321));
        // The same place (lower bits), another hash: no answer.
        assert_eq!(cache.get(h ^ (1 << 40)), None);
        assert_eq!(cache.get(h ^ 1), None);
        cache.put(h, i16::MAX as i32 + 1);
        assert_eq!(cache.get(h), Some(-321), "a score outside i16 is not kept");
        cache.put(h, i16::MIN as i32);
        assert_eq!(cache.get(h), Some(i16::MIN as i32));
        // An empty place does not answer for a hash whose upper bits are zero.
        assert_eq!(cache.get(0x0000_0000_0000_0042), None);
        cache.put(0x42, 0);
        assert_eq!(cache.get(0x42), None, "not told from an empty place: evaluated again, never wrong");
        cache.put(0x42, 7);
        assert_eq!(cache.get(0x42), Some(7));
    }

    /// One side's terms, as [`evaluate_with`] computes them.
    fn side_of(pos: &Position, p: &EvalParams, us: Color) -> Side {
        let pawn_att = Color::ALL.map(|c| pawn_attack_set(c, pos.pieces(c, Role::Pawn)));
        eval_side(pos, p, us, pawn_att, None, pawn_side(pos, p, us, &pawn_terms(pos, p, pawn_att, None)))
    }

    #[test]
    fn each_variant_reads_its_family_s_table() {
        let table = |v| params_for(v) as *const EvalParams;
        assert_eq!(table(&variant::CHESS), &STANDARD as *const _);
        assert_eq!(table(&variant::ATOMIC), &ATOMIC as *const _);
        assert_eq!(table(&variant::CAPATOMIC), &CAPATOMIC as *const _);
        for v in [&variant::CAPABLANCA, &variant::CAPARANDOM, &variant::CAPARELOCATION, &variant::STONES] {
            assert_eq!(table(v), &CAPABLANCA as *const _, "{}", v.name);
        }
    }

    #[test]
    fn rank_and_file_tables_count_from_each_side() {
        // A white knight on e5 and a black one on d4: rank 4 (from White) and rank 4 (from Black), both three
        // files from the edge, so the tables cancel; move only the white knight and they show.
        let p0 = STANDARD.clone();
        let mut p1 = STANDARD.clone();
        p1.rank_mg[N * 10 + 4] += 40;
        p1.rank_eg[N * 10 + 4] += 40;
        p1.file_mg[N * 5 + 3] += 7;
        p1.file_eg[N * 5 + 3] += 7;
        let both = fen::parse_position(&variant::CHESS, "4k3/8/8/4N3/3n4/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(evaluate_with(&both, &p1), evaluate_with(&both, &p0));
        let one = fen::parse_position(&variant::CHESS, "4k3/8/8/4N3/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(evaluate_with(&one, &p1), evaluate_with(&one, &p0) + 47);
        let black = fen::parse_position(&variant::CHESS, "4k3/8/8/8/3n4/8/8/4K3 b - - 0 1").unwrap();
        assert_eq!(evaluate_with(&black, &p1), evaluate_with(&black, &p0) + 47);
    }

    /// `king_danger` for White with one weight set to 1 (the others 0): the count that weight multiplies.
    fn white_king_count(fen_text: &str, field: &str) -> i32 {
        let pos = fen::parse_position(&variant::CAPABLANCA, fen_text).unwrap();
        let mut p = CAPABLANCA.clone();
        p.safe_check = (field == "safe_check") as i32;
        p.king_ring_weak = (field == "king_ring_weak") as i32;
        p.pawn_storm = (field == "pawn_storm") as i32;
        let white = side_of(&pos, &p, Color::White);
        let black = side_of(&pos, &p, Color::Black);
        -king_danger(&pos, &p, Color::White, &white, &black)
    }

    #[test]
    fn king_danger_counts_safe_checks_weak_squares_and_storming_pawns() {
        // The rook on j7 can check the king on a1 from a7 and from j1.
        assert_eq!(white_king_count("4k5/9r/10/10/10/10/10/K9 w - - 0 1", "safe_check"), 2);
        // A white rook on b7 bars the way to a7; a white bishop on h3 guards j1 as well.
        assert_eq!(white_king_count("4k5/1R7r/10/10/10/10/10/K9 w - - 0 1", "safe_check"), 1);
        assert_eq!(white_king_count("4k5/1R7r/10/10/10/7B2/10/K9 w - - 0 1", "safe_check"), 0);
        // An archbishop on e4 checks from c2 (arriving along a diagonal, checking by a knight's move) and
        // from c3 and f6 (arriving by knight's moves, checking along the long diagonal).
        assert_eq!(white_king_count("4k5/10/10/10/4a5/10/10/K9 w - - 0 1", "safe_check"), 3);
        // A chancellor on c4 attacks b2 (a knight's move), the one neighbour of the king it reaches; a white
        // knight on d3 defends it.
        assert_eq!(white_king_count("4k5/10/10/10/2c7/10/10/K9 w - - 0 1", "king_ring_weak"), 1);
        assert_eq!(white_king_count("4k5/10/10/10/2c7/3N6/10/K9 w - - 0 1", "king_ring_weak"), 0);
        // Black pawns on b3 and a4 are within three ranks in front of the king; the one on b6 is not.
        assert_eq!(white_king_count("4k5/10/1p8/10/p9/1p8/10/K9 w - - 0 1", "pawn_storm"), 2);
    }

    /// The king's shelter and storm zones are the squares on its file and the ones beside it, ahead of it
    /// by at most two and three ranks: what the shelter and storm counts walked the pawns for before.
    #[test]
    fn king_zones_hold_the_files_and_ranks_in_front() {
        for color in Color::ALL {
            for k in (0..Square::COUNT).map(Square::from_index) {
                let front = (file_mask(k.file()) | adjacent_files(k.file())) & ahead(color, k);
                for (zone, ranks) in [(SHELTER_ZONE, 2), (STORM_ZONE, 3)] {
                    let near = front.into_iter().filter(|s| s.rank().abs_diff(k.rank()) <= ranks);
                    let near = near.fold(Bitboard::EMPTY, |b, s| b | Bitboard::from_square(s));
                    assert_eq!(zone[color.index()][k.index()], near, "{color:?} {k:?}");
                }
            }
        }
        // A white king on b1: its shelter is a2-c3; a black pawn on c4 storms it, one on c5 does not.
        let b1 = Square::from_index(1);
        assert_eq!(SHELTER_ZONE[0][1].count(), 6);
        assert!(STORM_ZONE[0][b1.index()].contains(Square::from_index(32)));
        assert!(!STORM_ZONE[0][b1.index()].contains(Square::from_index(42)));
    }

    #[test]
    fn start_positions_are_balanced() {
        for v in crate::rules::VARIANTS {
            let pos = Position::start(v);
            // Symmetric start: only the side to move's tempo bonus remains.
            let e = evaluate(&pos) - params_for(v).tempo;
            assert!(e.abs() <= 40, "{}: {e}", v.name);
        }
    }

    #[test]
    fn extra_queen_is_winning() {
        let pos = fen::parse_position(&variant::CHESS, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        assert!(evaluate(&pos) > 800);
        let pos = fen::parse_position(&variant::CHESS, "4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        assert!(evaluate(&pos) < -800);
    }

    #[test]
    fn walking_the_king_off_its_castling_rights_costs() {
        let castle =
            fen::parse_position(&variant::CHESS, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1").unwrap();
        let walked = fen::parse_position(&variant::CHESS, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4K1R w kq - 0 1").unwrap();
        let p = params_for(castle.variant());
        let c = side_of(&castle, p, Color::White).mg;
        let w = side_of(&walked, p, Color::White).mg;
        assert!(c > w, "castling rights {c} vs king walked to f1 {w}");
    }

    /// The middlegame part of `us`'s side evaluation that one weight adds (set by `set` to 10 against 0).
    fn term(fen_text: &str, us: Color, set: fn(&mut EvalParams, i32)) -> i32 {
        let pos = fen::parse_position(&variant::CHESS, fen_text).unwrap();
        let (mut with, mut without) = (STANDARD.clone(), STANDARD.clone());
        set(&mut with, 10);
        set(&mut without, 0);
        side_of(&pos, &with, us).mg - side_of(&pos, &without, us).mg
    }

    #[test]
    fn outposts_need_pawn_support_and_no_enemy_pawn_able_to_chase() {
        let set: fn(&mut EvalParams, i32) = |p, w| p.outpost = (w, 0);
        // Knight on e5 defended by d4, no black pawn on d or f files ahead of it.
        assert_eq!(term("4k3/p6p/8/4N3/3P4/8/8/4K3 w - - 0 1", Color::White, set), 10);
        // A black pawn on f7 can chase it away.
        assert_eq!(term("4k3/p4p1p/8/4N3/3P4/8/8/4K3 w - - 0 1", Color::White, set), 0);
        // Not defended by a pawn.
        assert_eq!(term("4k3/p6p/8/4N3/8/3P4/8/4K3 w - - 0 1", Color::White, set), 0);
    }

    #[test]
    fn connected_pawns_rook_on_seventh_and_open_king_file_are_counted() {
        let connected: fn(&mut EvalParams, i32) = |p, w| p.pawn_connected = (w, 0);
        // d4 defends e5 (chain) and e5 stands beside f5 (phalanx): e5 twice and f5 once, d4 not at all.
        assert_eq!(term("4k3/8/8/4PP2/3P4/8/8/4K3 w - - 0 1", Color::White, connected), 30);
        let seventh: fn(&mut EvalParams, i32) = |p, w| p.rook_seventh = (w, 0);
        assert_eq!(term("4k3/R7/8/8/8/8/8/4K3 w - - 0 1", Color::White, seventh), 10);
        assert_eq!(term("4k3/r7/8/8/8/8/8/4K3 b - - 0 1", Color::Black, seventh), 0);
        assert_eq!(term("4k3/8/8/8/8/8/r7/4K3 b - - 0 1", Color::Black, seventh), 10);
        let open: fn(&mut EvalParams, i32) = |p, w| p.king_open_file = w;
        assert_eq!(term("4k3/8/8/8/8/8/3P1P2/4K3 w - - 0 1", Color::White, open), -10);
        assert_eq!(term("4k3/8/8/8/8/8/3PPP2/4K3 w - - 0 1", Color::White, open), 0);
    }

    /// The exchange count as a recursion over [`Position::attackers_to`], every attacker of the square
    /// asked for again after each capture: what the piece on `from` moving to `to` wins, less what the
    /// other side then wins by taking it if that is anything.
    fn see_by_attackers_to(pos: &Position, p: &EvalParams, from: Square, to: Square) -> i32 {
        /// What `side` wins by taking the piece on `to` (worth `on_square`) with its least valuable
        /// attacker when that wins anything, `made` captures after the first (at most 39 are counted; a
        /// king takes nothing defended).
        fn taking(
            pos: &Position,
            p: &EvalParams,
            to: Square,
            side: Color,
            occ: Bitboard,
            on_square: i32,
            made: usize,
        ) -> i32 {
            let Some((sq, role)) = least_valuable(pos, pos.attackers_to(to, side, occ) & occ) else { return 0 };
            let occ = occ ^ Bitboard::from_square(sq);
            if made + 1 >= 40 || (role == Role::King && pos.attackers_to(to, side.other(), occ).any()) {
                return 0;
            }
            (on_square - taking(pos, p, to, side.other(), occ, value(p, role), made + 1)).max(0)
        }
        let Some(attacker) = pos.piece_at(from) else { return 0 };
        let victim = pos.piece_at(to).map_or(0, |x| value(p, x.role));
        let occ = pos.occupied() ^ Bitboard::from_square(from);
        victim - taking(pos, p, to, pos.turn().other(), occ, value(p, attacker.role), 0)
    }

    /// The exchange count with the sliders' lines traced again only where a piece left them gives what
    /// asking for every attacker after each capture gave: every variant's random games, each move of the
    /// side to move and each piece of it onto each enemy piece and each square next to its king.
    #[test]
    fn see_keeps_the_attackers_to_count() {
        use crate::rules::{VARIANTS, setups};
        use rand::rngs::StdRng;
        use rand::{RngExt, SeedableRng};
        let mut rng = StdRng::seed_from_u64(109);
        let (mut asked, mut nonzero) = (0, 0);
        for v in VARIANTS {
            let p = params_for(v);
            for game in 0..6 {
                let mut pos = setups::random_start(v, &mut rng);
                for _ in 0..(30 + game * 20) {
                    let us = pos.turn();
                    let legal = pos.legal_moves();
                    let mut pairs: Vec<(Square, Square)> = legal.iter().map(|m| (m.from, m.to)).collect();
                    let near_king = pos.king(us.other()).map(king_attacks).unwrap_or_default() & v.board();
                    for from in pos.by_color(us) {
                        pairs.extend((pos.by_color(us.other()) | near_king).map(|to| (from, to)));
                    }
                    for (from, to) in pairs {
                        let s = see(&pos, p, from, to);
                        assert_eq!(s, see_by_attackers_to(&pos, p, from, to), "{from:?} {to:?} {pos:?}");
                        asked += 1;
                        nonzero += (s != 0) as usize;
                    }
                    if legal.is_empty() || pos.outcome().is_some() {
                        break;
                    }
                    pos = pos.play(legal[rng.random_range(0..legal.len())]);
                }
            }
        }
        assert!(asked > 100_000 && nonzero > asked / 4, "{asked} {nonzero}");
    }

    #[test]
    fn see_counts_defenders() {
        // Rook takes a pawn defended by a pawn: loses the exchange.
        let pos = fen::parse_position(&variant::CHESS, "4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1").unwrap();
        let p = params_for(pos.variant());
        let s = see(&pos, p, Square::parse("d1").unwrap(), Square::parse("d5").unwrap());
        assert!(s < 0, "{s}");
        let pos = fen::parse_position(&variant::CHESS, "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1").unwrap();
        let s = see(&pos, p, Square::parse("d1").unwrap(), Square::parse("d5").unwrap());
        assert_eq!(s, value(p, Role::Pawn));
    }

    #[test]
    fn atomic_punishes_attacked_fuse_next_to_king() {
        // White's knight on e2 sits next to the king and the black queen attacks it.
        let attacked = fen::parse_position(&variant::ATOMIC, "4k3/8/8/7q/8/8/4N3/4K3 w - - 0 1").unwrap();
        let quiet = fen::parse_position(&variant::ATOMIC, "4k3/8/7q/8/8/8/4N3/4K3 w - - 0 1").unwrap();
        let p = params_for(attacked.variant());
        let a = side_of(&attacked, p, Color::White).mg;
        let q = side_of(&quiet, p, Color::White).mg;
        assert_eq!(q - a, p.atomic_exposed_attacked);
    }
}
