/* A compact rules core of Azul in C, for search (the move assistant's playouts, the benchmark).
 *
 * A faithful translation of engine/azul.py (the reference, which stays the engine of every
 * interface): every variant (coloured or grey wall, with or without jokers), 2 to 4 players,
 * the same legal moves in the same order, the same scores and the same endings (the "stalled"
 * rules included: _any_row_completable, _can_match, and the round-end fingerprint, which is
 * Python's own hash of a tuple of small ints, computed here bit for bit).
 * tests/engine/test_fast_azul.py plays it against the reference.
 *
 * The Python face is engine/fast.py's FastAzul, a subclass of Core: the state crosses the
 * boundary as a flat tuple of ints (_dump/_load, layout below) and moves as small tuples
 * (_moves), which fast.py turns into the reference's own objects.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define JOKER 5
#define MARKER 6
#define FLOOR_SIZE 7
#define FLOOR_LINE 5 /* a take's line, or a wall move's column: the floor */
#define CENTRE 9     /* a take's source: the centre (factories are 0..8) */
#define NO_COLOR 7   /* a take of jokers alone */
#define FULL_ROW 31
#define MAX_FACTORIES 9
#define MAX_PLAYERS 4
#define MAX_MOVES 4096 /* far above the most legal moves of any position (under 3,000) */

enum { PH_DEAL = 0, PH_OFFER = 1, PH_TILING = 2, PH_OVER = 3 };
enum { END_NONE = 0, END_ROW = 1, END_STALLED = 2 };
#define CHANCE (-1)
#define TERMINAL (-2)

static const int FLOOR_LOSS[FLOOR_SIZE + 1] = {0, 1, 2, 4, 6, 8, 11, 14};
static const int ROW_BONUS = 2, COLUMN_BONUS = 7, COLOR_BONUS = 10;

typedef struct {
    int8_t line_color[5], line_count[5], line_jokers[5];
    int8_t wall[25];
    uint8_t row_filled[5], row_block[5], col_colors[5], accept[5];
    int8_t floor[FLOOR_SIZE];
    int8_t floor_len;
    int32_t score, placement, penalties;
    int32_t bonus[3];
} Board;

typedef struct {
    int8_t players, grey, jokers, pooled, nf;
    int8_t phase, to_move, start_player, first_in_center, first_holder; /* first_holder -1: None */
    int8_t tiling_p, tiling_r, end_reason, has_last;
    int32_t round, on_table;
    int64_t last_round_end;
    int32_t bag[6], spare[6], center[6];
    uint8_t fac[MAX_FACTORIES][6];
    Board b[MAX_PLAYERS];
} State;

/* A move: kind 0 a take (src 0..8 or CENTRE, color 0..4 or NO_COLOR, line 0..4 or FLOOR_LINE,
 * jokers 0/1, floor_jokers), kind 1 a wall move (row in line, column in color... see below). */
typedef struct {
    uint8_t kind, src, color, line, jokers, floor_jokers;
} Move;

typedef struct {
    PyObject_HEAD
    State s;
    uint64_t rng[4];
    int nmoves; /* legal moves cached in moves[], -1 when stale */
    Move moves[MAX_MOVES];
} Core;

/* ------------------------------------------------------------------ tables */

static uint8_t RUN[32][5];
static uint8_t POPCOUNT[32];

static void init_tables(void) {
    for (int m = 0; m < 32; m++) {
        POPCOUNT[m] = (uint8_t)__builtin_popcount(m);
        for (int i = 0; i < 5; i++) {
            if (!(m >> i & 1)) { RUN[m][i] = 0; continue; }
            int lo = i, hi = i;
            while (lo > 0 && (m >> (lo - 1) & 1)) lo--;
            while (hi < 4 && (m >> (hi + 1) & 1)) hi++;
            RUN[m][i] = (uint8_t)(hi - lo + 1);
        }
    }
}

/* ------------------------------------------------------------------ random numbers (xoshiro256**) */

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t rng_next(uint64_t *s) {
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45);
    return result;
}

static void rng_seed(uint64_t *s, uint64_t seed) {
    for (int i = 0; i < 4; i++) { /* splitmix64 */
        uint64_t z = (seed += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        s[i] = z ^ (z >> 31);
    }
}

/* Uniform in 0..n-1 (n >= 1), without modulo bias. */
static inline uint32_t rng_below(uint64_t *s, uint32_t n) {
    uint64_t threshold = (0 - (uint64_t)n) % n;
    for (;;) {
        uint64_t r = rng_next(s);
        if (r >= threshold) return (uint32_t)(r % n);
    }
}

static inline double rng_unit(uint64_t *s) { return (double)(rng_next(s) >> 11) * 0x1.0p-53; }

/* ------------------------------------------------------------------ the rules */

static void refresh_accept(Board *b) {
    uint8_t acc[5] = {0, 0, 0, 0, 0};
    for (int r = 0; r < 5; r++) {
        if (b->line_count[r] + b->line_jokers[r] > r) continue;
        int c = b->line_color[r];
        if (c >= 0) acc[c] |= (uint8_t)(1 << r);
        else
            for (int x = 0; x < 5; x++)
                if (!(b->row_block[r] >> x & 1)) acc[x] |= (uint8_t)(1 << r);
    }
    memcpy(b->accept, acc, 5);
}

static int joker_lines(const Board *b) {
    int mask = 0;
    for (int r = 0; r < 5; r++) {
        int n = b->line_count[r] + b->line_jokers[r];
        if (n <= r && (n || b->row_filled[r] != FULL_ROW)) mask |= 1 << r;
    }
    return mask;
}

static int complete_rows(const Board *b) {
    int n = 0;
    for (int r = 0; r < 5; r++) n += b->row_filled[r] == FULL_ROW;
    return n;
}

static void state_new(State *s, int players, int grey, int jokers, int start_player) {
    memset(s, 0, sizeof *s);
    s->players = (int8_t)players;
    s->grey = (int8_t)grey;
    s->jokers = (int8_t)jokers;
    s->nf = (int8_t)(players == 2 ? 5 : players == 3 ? 7 : 9);
    s->round = 1;
    s->phase = PH_DEAL;
    s->to_move = s->start_player = (int8_t)start_player;
    s->first_in_center = 1;
    s->first_holder = -1;
    int per_color = 20 - (jokers ? (players == 2 ? 1 : 2) : 0);
    for (int c = 0; c < 5; c++) s->bag[c] = per_color;
    s->bag[JOKER] = jokers ? (20 - per_color) * 5 : 0;
    for (int p = 0; p < players; p++) {
        Board *b = &s->b[p];
        for (int r = 0; r < 5; r++) { b->line_color[r] = -1; b->accept[r] = FULL_ROW; }
        for (int i = 0; i < 25; i++) b->wall[i] = -1;
    }
}

static int placement_points(const uint8_t *row_filled, int r, int col) {
    int vmask = 0;
    for (int i = 0; i < 5; i++) vmask |= ((row_filled[i] | (i == r ? 1 << col : 0)) >> col & 1) << i;
    int h = RUN[row_filled[r] | 1 << col][col], v = RUN[vmask][r];
    return (h == 1 && v == 1) ? 1 : (h > 1 ? h : 0) + (v > 1 ? v : 0);
}

/* Wall points of completing line r in color (-1: a line of jokers alone): its space, or the best
 * free column it may take (grey wall, or jokers alone), 0 where none may. */
static int completion_points(const State *s, const Board *b, int r, int color) {
    if (!s->grey && color >= 0) return placement_points(b->row_filled, r, (color + r) % 5);
    int best = 0;
    for (int col = 0; col < 5; col++) {
        if (b->row_filled[r] >> col & 1) continue;
        if (color >= 0 && (b->col_colors[col] >> color & 1)) continue;
        int pts = placement_points(b->row_filled, r, col);
        if (pts > best) best = pts;
    }
    return best;
}

static void to_floor(State *s, Board *b, int tile, int count) {
    int room = FLOOR_SIZE - b->floor_len;
    int k = count < room ? count : room;
    if (k > 0) {
        for (int i = 0; i < k; i++) b->floor[b->floor_len++] = (int8_t)tile;
    } else {
        k = 0;
    }
    if (count > k) s->spare[tile] += count - k;
}

static void tile_line(State *s, int p, int r, int col) {
    Board *b = &s->b[p];
    int c = b->line_color[r], n = b->line_count[r], j = b->line_jokers[r];
    b->line_color[r] = -1;
    b->line_count[r] = 0;
    b->line_jokers[r] = 0;
    if (col < 0) {
        if (j) to_floor(s, b, JOKER, j);
        if (n) to_floor(s, b, c, n);
        refresh_accept(b);
        return;
    }
    int tile;
    if (j) {
        tile = JOKER;
        s->spare[JOKER] += j - 1;
        if (n) s->spare[c] += n;
    } else {
        tile = c;
        s->spare[c] += n - 1;
    }
    b->wall[r * 5 + col] = (int8_t)tile;
    b->row_filled[r] |= (uint8_t)(1 << col);
    if (s->grey) {
        if (tile != JOKER) {
            b->row_block[r] |= (uint8_t)(1 << c);
            b->col_colors[col] |= (uint8_t)(1 << c);
        }
    } else {
        b->row_block[r] |= (uint8_t)(1 << (((col - r) % 5 + 5) % 5));
    }
    int vmask = 0;
    for (int i = 0; i < 5; i++) vmask |= (b->row_filled[i] >> col & 1) << i;
    int h = RUN[b->row_filled[r]][col], v = RUN[vmask][r];
    int points = (h == 1 && v == 1) ? 1 : (h > 1 ? h : 0) + (v > 1 ? v : 0);
    b->score += points;
    b->placement += points;
    refresh_accept(b);
}

static void score_floor(State *s, Board *b) {
    if (!b->floor_len) return;
    int loss = FLOOR_LOSS[b->floor_len];
    if (loss > b->score) loss = b->score;
    b->score -= loss;
    b->penalties -= loss;
    for (int i = 0; i < b->floor_len; i++)
        if (b->floor[i] != MARKER) s->spare[b->floor[i]]++;
    b->floor_len = 0;
}

/* Python's hash() of a tuple of small ints (Objects/tupleobject.c, xxHash-based, CPython >= 3.8). */
static int64_t tuple_hash(const int64_t *v, int n) {
    const uint64_t P1 = 11400714785074694791ULL, P2 = 14029467366897019727ULL, P5 = 2870177450012600261ULL;
    uint64_t acc = P5;
    for (int i = 0; i < n; i++) {
        uint64_t lane = (uint64_t)(v[i] == -1 ? -2 : v[i]); /* hash(-1) is -2 */
        acc += lane * P2;
        acc = (acc << 31) | (acc >> 33);
        acc *= P1;
    }
    acc += (uint64_t)n ^ (P5 ^ 3527539ULL);
    if (acc == (uint64_t)-1) return 1546275796;
    return (int64_t)acc;
}

static int64_t round_end_fingerprint(const State *s) {
    int64_t parts[13 + 41 * MAX_PLAYERS];
    int n = 0;
    parts[n++] = s->start_player;
    for (int t = 0; t < 6; t++) parts[n++] = s->bag[t];
    for (int t = 0; t < 6; t++) parts[n++] = s->spare[t];
    for (int p = 0; p < s->players; p++) {
        const Board *b = &s->b[p];
        for (int r = 0; r < 5; r++) parts[n++] = b->line_color[r];
        for (int r = 0; r < 5; r++) parts[n++] = b->line_count[r];
        for (int r = 0; r < 5; r++) parts[n++] = b->line_jokers[r];
        for (int i = 0; i < 25; i++) parts[n++] = b->wall[i];
        parts[n++] = b->score;
    }
    return tuple_hash(parts, n);
}

/* Whether each empty space (a mask of colours it may take) can get a different colour. */
static int can_match(const int *allowed, int n) {
    uint32_t reachable = 1; /* bit u: the set u of colours used is reachable */
    for (int i = 0; i < n; i++) {
        uint32_t next = 0;
        for (int used = 0; used < 32; used++) {
            if (!(reachable >> used & 1)) continue;
            int free = allowed[i] & ~used & FULL_ROW;
            for (int c = 0; c < 5; c++)
                if (free >> c & 1) next |= 1u << (used | 1 << c);
        }
        reachable = next;
        if (!reachable) return 0;
    }
    return 1;
}

static int any_row_completable(const State *s) {
    int available = 0;
    for (int c = 0; c < 5; c++)
        if (s->bag[c] + s->spare[c]) available |= 1 << c;
    if (s->jokers) {
        if (s->bag[JOKER] + s->spare[JOKER]) return 1;
        for (int p = 0; p < s->players; p++) {
            const Board *b = &s->b[p];
            for (int r = 0; r < 5; r++) {
                if (!b->line_jokers[r]) continue;
                int c = b->line_color[r];
                if (c >= 0 ? (available >> c & 1) : (available & ~b->row_block[r] & FULL_ROW)) return 1;
            }
        }
    }
    for (int p = 0; p < s->players; p++) {
        const Board *b = &s->b[p];
        for (int r = 0; r < 5; r++) {
            int c = b->line_color[r];
            if (b->line_jokers[r] || (c >= 0 && !(available >> c & 1))) continue;
            int allowed[5], n = 0;
            for (int col = 0; col < 5; col++) {
                if (b->row_filled[r] >> col & 1) continue;
                if (s->grey) allowed[n++] = available & ~b->row_block[r] & ~b->col_colors[col] & FULL_ROW;
                else allowed[n++] = available & (1 << (((col - r) % 5 + 5) % 5));
            }
            if (can_match(allowed, n)) return 1;
        }
    }
    return 0;
}

static void finish(State *s, int reason) {
    for (int p = 0; p < s->players; p++) {
        Board *b = &s->b[p];
        int rows = 0, columns = 0, colors = 0, per[6] = {0};
        for (int r = 0; r < 5; r++) {
            int all = 1;
            for (int c = 0; c < 5; c++) all &= b->wall[r * 5 + c] >= 0;
            rows += all;
        }
        for (int c = 0; c < 5; c++) {
            int all = 1;
            for (int r = 0; r < 5; r++) all &= b->wall[r * 5 + c] >= 0;
            columns += all;
        }
        for (int i = 0; i < 25; i++)
            if (b->wall[i] >= 0 && b->wall[i] < 6) per[b->wall[i]]++;
        for (int k = 0; k < 5; k++) colors += per[k] == 5;
        b->bonus[0] = rows * ROW_BONUS;
        b->bonus[1] = columns * COLUMN_BONUS;
        b->bonus[2] = colors * COLOR_BONUS;
        b->score += b->bonus[0] + b->bonus[1] + b->bonus[2];
    }
    s->phase = PH_OVER;
    s->end_reason = (int8_t)reason;
}

static void end_round(State *s) {
    for (int p = 0; p < s->players; p++)
        for (int r = 0; r < 5; r++)
            if (s->b[p].row_filled[r] == FULL_ROW) { finish(s, END_ROW); return; }
    int left = 0;
    for (int t = 0; t < 6; t++) left |= s->bag[t] | s->spare[t];
    if (!left) { finish(s, END_STALLED); return; }
    if (!any_row_completable(s)) { finish(s, END_STALLED); return; }
    if (s->first_holder >= 0) s->start_player = s->first_holder;
    int64_t ending = round_end_fingerprint(s);
    if (s->has_last && ending == s->last_round_end) { finish(s, END_STALLED); return; }
    s->last_round_end = ending;
    s->has_last = 1;
    s->round += 1;
    s->first_holder = -1;
    s->first_in_center = 1;
    s->to_move = s->start_player;
    s->phase = PH_DEAL;
}

/* Tile complete lines from the cursor on, stopping where a player must choose. */
static void advance_tiling(State *s) {
    int p = s->tiling_p, r = s->tiling_r;
    while (p < s->players) {
        Board *b = &s->b[p];
        while (r < 5) {
            if (b->line_count[r] + b->line_jokers[r] > r) {
                int c = b->line_color[r];
                if (s->grey || c < 0) {
                    s->tiling_p = (int8_t)p;
                    s->tiling_r = (int8_t)r;
                    s->to_move = (int8_t)p;
                    s->phase = PH_TILING;
                    return;
                }
                tile_line(s, p, r, (c + r) % 5);
            }
            r++;
        }
        score_floor(s, b);
        p++;
        r = 0;
    }
    end_round(s);
}

static void take(State *s, int src, int c, int line, int take_jokers, int floor_jokers) {
    int player = s->to_move;
    Board *b = &s->b[player];
    int marker = 0, n, j;
    if (src == CENTRE) {
        n = c >= 0 ? s->center[c] : 0;
        if (c >= 0) s->center[c] = 0;
        j = take_jokers ? s->center[JOKER] : 0;
        if (take_jokers) s->center[JOKER] = 0;
        if (s->first_in_center) {
            s->first_in_center = 0;
            s->first_holder = (int8_t)player;
            marker = 1;
        }
    } else {
        uint8_t *pile = s->fac[src];
        n = c >= 0 ? pile[c] : 0;
        if (c >= 0) pile[c] = 0;
        j = take_jokers ? pile[JOKER] : 0;
        if (take_jokers) pile[JOKER] = 0;
        for (int t = 0; t < 6; t++) { s->center[t] += pile[t]; pile[t] = 0; }
    }
    s->on_table -= n + j;
    if (marker && b->floor_len < FLOOR_SIZE) b->floor[b->floor_len++] = MARKER;
    int to_line_c = 0, to_line_j = 0;
    if (line != FLOOR_LINE) {
        int free = line + 1 - b->line_count[line] - b->line_jokers[line];
        to_line_j = (j < free ? j : free) - floor_jokers;
        to_line_c = n < free - to_line_j ? n : free - to_line_j;
        if (to_line_c) {
            b->line_color[line] = (int8_t)c;
            b->line_count[line] += (int8_t)to_line_c;
        }
        b->line_jokers[line] += (int8_t)to_line_j;
    }
    n -= to_line_c;
    j -= to_line_j;
    if (j) to_floor(s, b, JOKER, j);
    if (n) to_floor(s, b, c, n);
    if (to_line_c || to_line_j) {
        /* Only line `line` changed: it now takes its colour alone, or nothing once full. */
        uint8_t *acc = b->accept;
        int bit = 1 << line;
        int open = b->line_count[line] + b->line_jokers[line] <= line;
        int keep = (c >= 0 && open) ? (acc[c] & bit) : 0;
        for (int x = 0; x < 5; x++) acc[x] &= (uint8_t)~bit;
        if (keep) acc[c] |= (uint8_t)keep;
        else if (c < 0 && b->line_color[line] >= 0 && open) acc[b->line_color[line]] |= (uint8_t)bit;
        else if (c < 0 && b->line_color[line] < 0 && b->line_jokers[line] <= line) {
            for (int x = 0; x < 5; x++)
                if (!(b->row_block[line] >> x & 1)) acc[x] |= (uint8_t)bit;
        }
    }
    if (s->on_table) {
        s->to_move = (int8_t)((player + 1) % s->players);
    } else {
        s->tiling_p = s->tiling_r = 0;
        advance_tiling(s);
    }
}

/* Deal counts[f][t] tiles of kind t on each factory f, already drawn (the bag poured from the lid
 * first where it held too few). */
static void deal_counts(State *s, const int counts[MAX_FACTORIES][6]) {
    int total[6] = {0}, sum = 0, in_bag = 0;
    for (int f = 0; f < s->nf; f++)
        for (int t = 0; t < 6; t++) { total[t] += counts[f][t]; sum += counts[f][t]; }
    for (int t = 0; t < 6; t++) in_bag += s->bag[t];
    if (sum > in_bag)
        for (int t = 0; t < 6; t++) { s->bag[t] += s->spare[t]; s->spare[t] = 0; }
    for (int t = 0; t < 6; t++) s->bag[t] -= total[t];
    for (int f = 0; f < s->nf; f++)
        for (int t = 0; t < 6; t++) s->fac[f][t] = (uint8_t)counts[f][t];
    s->on_table = sum;
    s->phase = PH_OFFER;
    s->to_move = s->start_player;
    if (!s->on_table) { /* nothing to take: straight to wall tiling (only possible if stalled) */
        s->tiling_p = s->tiling_r = 0;
        advance_tiling(s);
    }
}

static void pool_hidden(State *s) {
    if (s->pooled)
        for (int t = 0; t < 6; t++) { s->bag[t] += s->spare[t]; s->spare[t] = 0; }
}

/* One tile drawn at random from counts (total > 0 tiles), taken out of them. */
static int draw_one(int32_t *counts, int total, uint64_t *rng) {
    int k = (int)rng_below(rng, (uint32_t)total), t = 0;
    while (k >= counts[t]) k -= counts[t++];
    counts[t]--;
    return t;
}

/* Draw the due deal as the reference does: tiles one by one from the bag (a random sample of it,
 * in a random order), then, once the bag runs out, from the lid poured in; fewer when both run
 * out. The drawn tiles fill the factories four by four, in order. */
static void deal_random(State *s, uint64_t *rng) {
    int need = 4 * s->nf, in_bag = 0, in_spare = 0, drawn = 0;
    int32_t bag[6], spare[6];
    pool_hidden(s);
    memcpy(bag, s->bag, sizeof bag);
    memcpy(spare, s->spare, sizeof spare);
    for (int t = 0; t < 6; t++) { in_bag += bag[t]; in_spare += spare[t]; }
    int counts[MAX_FACTORIES][6];
    memset(counts, 0, sizeof counts);
    for (; drawn < need && in_bag; drawn++, in_bag--) counts[drawn / 4][draw_one(bag, in_bag, rng)]++;
    for (; drawn < need && in_spare; drawn++, in_spare--) counts[drawn / 4][draw_one(spare, in_spare, rng)]++;
    deal_counts(s, counts);
}

static inline void add_take(Move *out, int *n, int src, int c, int line, int jokers, int fj) {
    Move *m = &out[(*n)++];
    m->kind = 0;
    m->src = (uint8_t)src;
    m->color = (uint8_t)(c < 0 ? NO_COLOR : c);
    m->line = (uint8_t)line;
    m->jokers = (uint8_t)jokers;
    m->floor_jokers = (uint8_t)fj;
}

/* The takes of one option of the joker variant: color c (-1: jokers alone), n tiles, jj jokers. */
static void joker_option(const Board *b, int jl, int src, int c, int n, int jj, Move *out, int *count) {
    int lines = c >= 0 ? b->accept[c] : jl;
    for (int r = 0; r < 5; r++) {
        if (!(lines >> r & 1)) continue;
        int free = r + 1 - b->line_count[r] - b->line_jokers[r];
        int choices;
        if (n == 0 || jj == 0 || n + jj <= free) {
            choices = 1;
        } else {
            int on_line = jj < free ? jj : free;
            int most = n - (free - on_line);
            if (on_line < most) most = on_line;
            choices = most >= 0 ? most + 1 : 0;
        }
        for (int k = 0; k < choices; k++) add_take(out, count, src, c, r, jj > 0, k);
    }
    add_take(out, count, src, c, FLOOR_LINE, jj > 0, 0);
}

/* Every legal move, in the reference's order: factories then the centre; colours in wall order
 * (then, with jokers, each colour with the jokers, then jokers alone); lines 0..4, the floor. */
static int gen_moves(const State *s, Move *out) {
    int n = 0;
    if (s->phase == PH_OFFER) {
        const Board *b = &s->b[s->to_move];
        if (!s->jokers) {
            for (int src = 0; src <= s->nf; src++) {
                const int is_centre = src == s->nf;
                for (int c = 0; c < 5; c++) {
                    if (!(is_centre ? s->center[c] : s->fac[src][c])) continue;
                    int acc = b->accept[c];
                    for (int r = 0; r < 5; r++)
                        if (acc >> r & 1) add_take(out, &n, is_centre ? CENTRE : src, c, r, 0, 0);
                    add_take(out, &n, is_centre ? CENTRE : src, c, FLOOR_LINE, 0, 0);
                }
            }
            return n;
        }
        int jl = joker_lines(b);
        for (int src = 0; src <= s->nf; src++) {
            const int is_centre = src == s->nf, code = is_centre ? CENTRE : src;
            int pile[6];
            for (int t = 0; t < 6; t++) pile[t] = is_centre ? s->center[t] : s->fac[src][t];
            int j = pile[JOKER];
            for (int c = 0; c < 5; c++) {
                if (!pile[c]) continue;
                joker_option(b, jl, code, c, pile[c], 0, out, &n);
                if (j) joker_option(b, jl, code, c, pile[c], j, out, &n);
            }
            if (j) joker_option(b, jl, code, -1, 0, j, out, &n);
        }
        return n;
    }
    if (s->phase == PH_TILING) {
        int p = s->tiling_p, r = s->tiling_r;
        const Board *b = &s->b[p];
        int c = b->line_color[r], filled = b->row_filled[r];
        for (int col = 0; col < 5; col++) {
            if (filled >> col & 1) continue;
            if (s->grey && c >= 0 && (b->col_colors[col] >> c & 1)) continue;
            Move *m = &out[n++];
            memset(m, 0, sizeof *m);
            m->kind = 1;
            m->src = (uint8_t)r;
            m->line = (uint8_t)col;
        }
        if (!n) {
            Move *m = &out[n++];
            memset(m, 0, sizeof *m);
            m->kind = 1;
            m->src = (uint8_t)r;
            m->line = FLOOR_LINE;
        }
    }
    return n;
}

/* The offer without jokers, group by group (a source and a colour: its accepting lines, then the
 * floor): counted, and the i-th move found, without writing the moves out. */
static inline int plain_offer(const State *s) { return s->phase == PH_OFFER && !s->jokers; }

static int plain_count(const State *s) {
    const uint8_t *acc = s->b[s->to_move].accept;
    int n = 0;
    for (int src = 0; src < s->nf; src++)
        for (int c = 0; c < 5; c++)
            if (s->fac[src][c]) n += POPCOUNT[acc[c]] + 1;
    for (int c = 0; c < 5; c++)
        if (s->center[c]) n += POPCOUNT[acc[c]] + 1;
    return n;
}

static void plain_nth(const State *s, int i, Move *m) {
    const uint8_t *acc = s->b[s->to_move].accept;
    memset(m, 0, sizeof *m);
    for (int src = 0; src <= s->nf; src++) {
        const int is_centre = src == s->nf;
        for (int c = 0; c < 5; c++) {
            if (!(is_centre ? s->center[c] : s->fac[src][c])) continue;
            int size = POPCOUNT[acc[c]] + 1;
            if (i >= size) { i -= size; continue; }
            int line = 0;
            for (; line < 5; line++)
                if ((acc[c] >> line & 1) && i-- == 0) break;
            m->src = (uint8_t)(is_centre ? CENTRE : src);
            m->color = (uint8_t)c;
            m->line = (uint8_t)line; /* 5 (the floor) when the lines ran out */
            return;
        }
    }
}

/* greedy_move's index in the offer without jokers, judging each move as immediate_points does. */
static int plain_greedy(const State *s) {
    const Board *b = &s->b[s->to_move];
    int now = b->floor_len, lost_now = FLOOR_LOSS[now];
    int gains[5][5], index = 0, best = 0, best_points = 0, first = 1;
    memset(gains, -1, sizeof gains);
    for (int src = 0; src <= s->nf; src++) {
        const int is_centre = src == s->nf;
        const int marker = is_centre && s->first_in_center;
        for (int c = 0; c < 5; c++) {
            int n = is_centre ? s->center[c] : s->fac[src][c];
            if (!n) continue;
            for (int r = 0; r < 5; r++) {
                if (!(b->accept[c] >> r & 1)) continue;
                int free = r + 1 - b->line_count[r] - b->line_jokers[r], gain = 0;
                if (n >= free) {
                    if (gains[r][c] < 0) gains[r][c] = completion_points(s, b, r, c);
                    gain = gains[r][c];
                }
                int k = now + marker + (n > free ? n - free : 0);
                int pts = gain - (FLOOR_LOSS[k < FLOOR_SIZE ? k : FLOOR_SIZE] - lost_now);
                if (first || pts > best_points) { best = index; best_points = pts; first = 0; }
                index++;
            }
            int k = now + marker + n;
            int pts = -(FLOOR_LOSS[k < FLOOR_SIZE ? k : FLOOR_SIZE] - lost_now);
            if (first || pts > best_points) { best = index; best_points = pts; first = 0; }
            index++;
        }
    }
    return best;
}

static void play_move(State *s, const Move *m) {
    if (m->kind == 0) {
        take(s, m->src, m->color == NO_COLOR ? -1 : m->color, m->line, m->jokers, m->floor_jokers);
    } else {
        int p = s->tiling_p, r = s->tiling_r;
        tile_line(s, p, r, m->line == FLOOR_LINE ? -1 : m->line);
        s->tiling_r = (int8_t)(r + 1);
        advance_tiling(s);
    }
}

/* What a legal move brings at the coming wall tiling, judged on the board as it is: the wall
 * placement of a line it completes, less the floor penalty it adds (azul.immediate_points). */
static int immediate_points(const State *s, const Move *m) {
    const Board *b = &s->b[s->to_move];
    int now = b->floor_len;
    if (m->kind == 1) {
        if (m->line != FLOOR_LINE) return placement_points(b->row_filled, m->src, m->line);
        int k = now + m->src + 1;
        return -(FLOOR_LOSS[k < FLOOR_SIZE ? k : FLOOR_SIZE] - FLOOR_LOSS[now]);
    }
    int centre = m->src == CENTRE;
    int c = m->color == NO_COLOR ? -1 : m->color;
    int n = c >= 0 ? (centre ? s->center[c] : s->fac[m->src][c]) : 0;
    int j = m->jokers ? (centre ? s->center[JOKER] : s->fac[m->src][JOKER]) : 0;
    int on_floor = centre && s->first_in_center ? 1 : 0, gain = 0;
    if (m->line == FLOOR_LINE) {
        on_floor += n + j;
    } else {
        int r = m->line, free = r + 1 - b->line_count[r] - b->line_jokers[r];
        if (n + j > free) on_floor += n + j - free;
        if (n + j >= free) gain = completion_points(s, b, r, c >= 0 ? c : b->line_color[r]);
    }
    int k = now + on_floor;
    return gain - (FLOOR_LOSS[k < FLOOR_SIZE ? k : FLOOR_SIZE] - FLOOR_LOSS[now]);
}

/* The first legal move with the most immediate points (greedy_move's choice). */
static int greedy_of(const State *s, const Move *moves, int n) {
    int best = 0, best_points = 0;
    for (int i = 0; i < n; i++) {
        int pts = immediate_points(s, &moves[i]);
        if (i == 0 || pts > best_points) { best = i; best_points = pts; }
    }
    return best;
}

static inline int current_player(const State *s) {
    if (s->phase == PH_OFFER || s->phase == PH_TILING) return s->to_move;
    return s->phase == PH_DEAL ? CHANCE : TERMINAL;
}

/* One move of the quick policy (ai._playout's): with probability wander a uniformly random legal
 * move, else the greedy move; a due deal drawn with ``rng``. ``buf`` holds the moves. No draw
 * where the policy is sure (wander 0 or 1): a greedy playout then draws only its deals. */
static void policy_step(State *s, uint64_t *rng, double wander, Move *buf) {
#define WANDERS() (wander >= 1.0 || (wander > 0.0 && rng_unit(rng) < wander))
    if (current_player(s) == CHANCE) {
        deal_random(s, rng);
        return;
    }
    if (plain_offer(s)) {
        Move m;
        int n = plain_count(s);
        plain_nth(s, WANDERS() ? (int)rng_below(rng, (uint32_t)n) : plain_greedy(s), &m);
        play_move(s, &m);
        return;
    }
    int n = gen_moves(s, buf);
    int i = WANDERS() ? (int)rng_below(rng, (uint32_t)n) : greedy_of(s, buf, n);
    play_move(s, &buf[i]);
#undef WANDERS
}

/* ------------------------------------------------------------------ the assistant's search */

#define MAXPLAYERS MAX_PLAYERS
static int winners_of(const State *s, int *out);
#define SEARCH_MAX_MOVES MAX_MOVES
/* A round holds no chance and the greedy move is one: every line of a move's reasons is the same line. */
#define SEARCH_REASON_LINES 1

typedef struct {
    uint64_t rng[4];
    Move moves[MAX_MOVES];
} SearchScratch;

static inline uint32_t move_pack(const Move *m) {
    return (uint32_t)m->kind | (uint32_t)m->src << 1 | (uint32_t)m->color << 5 | (uint32_t)m->line << 8
           | (uint32_t)m->jokers << 11 | (uint32_t)m->floor_jokers << 12;
}

static inline void move_unpack(uint32_t code, Move *m) {
    m->kind = code & 1;
    m->src = code >> 1 & 15;
    m->color = code >> 5 & 7;
    m->line = code >> 8 & 7;
    m->jokers = code >> 11 & 1;
    m->floor_jokers = (uint8_t)(code >> 12 & 255);
}

static int search_moves(const State *s, SearchScratch *w, uint32_t *codes, int *points) {
    int n = gen_moves(s, w->moves);
    for (int i = 0; i < n; i++) {
        codes[i] = move_pack(&w->moves[i]);
        points[i] = immediate_points(s, &w->moves[i]);
    }
    return n;
}

static void search_play(State *s, uint32_t code) {
    Move m;
    move_unpack(code, &m);
    play_move(s, &m);
}

static void search_seed(SearchScratch *w, uint64_t seed) { rng_seed(w->rng, seed); }
static void search_reseed(State *s, SearchScratch *w) { (void)s; (void)w; /* the stream runs on in w */ }
static void search_step(State *s, SearchScratch *w, double wander) { policy_step(s, w->rng, wander, w->moves); }
static int search_round_over(const State *s) { return s->phase == PH_DEAL || s->phase == PH_OVER; }
static int search_score(const State *s, int p) { return s->b[p].score; }
static int search_lost(const State *s, int p) { return -s->b[p].penalties; }

/* The end bonuses a wall promises: each row, column and colour bonus weighed by the square of
 * its share done (a line half done is far from a quarter of the bonus in hand), and only where
 * the rounds left could finish it (a row takes one tile a round). Tiles waiting on a pattern line
 * count for their share of the line, and for that share of the wall points the line brings. */
static double wall_promise(const State *s, const Board *b, double rounds) {
    double row[5] = {0}, column[5] = {0}, color[5] = {0}, promise = 0.0;
    for (int r = 0; r < 5; r++)
        for (int c = 0; c < 5; c++) {
            int t = b->wall[r * 5 + c];
            if (t < 0) continue;
            row[r] += 1.0;
            column[c] += 1.0;
            if (t < 5) color[t] += 1.0;
        }
    for (int r = 0; r < 5; r++) {
        int waiting = b->line_count[r] + b->line_jokers[r];
        if (waiting > 0 && b->line_color[r] >= 0) {
            double share = (double)waiting / (r + 1);
            row[r] += share;
            color[b->line_color[r]] += share;
            promise += share * completion_points(s, b, r, b->line_color[r]); /* its placement, as far as it got */
        }
    }
    for (int k = 0; k < 5; k++) {
        if (5.0 - row[k] <= rounds) promise += ROW_BONUS * (row[k] / 5.0) * (row[k] / 5.0);
        if (5.0 - column[k] <= 2.0 * rounds) promise += COLUMN_BONUS * (column[k] / 5.0) * (column[k] / 5.0);
        if (5.0 - color[k] <= 2.0 * rounds) promise += COLOR_BONUS * (color[k] / 5.0) * (color[k] / 5.0);
    }
    return promise;
}

/* Each player's score and what the wall promises; the spread of the final margin grows with the
 * rounds left (the game ends once a row is complete: the fullest row says how soon). */
static double search_values(const State *s, double *values) {
    int fullest = 0;
    for (int p = 0; p < s->players; p++)
        for (int r = 0; r < 5; r++)
            if (POPCOUNT[s->b[p].row_filled[r]] > fullest) fullest = POPCOUNT[s->b[p].row_filled[r]];
    double rounds = 5 - fullest < 1 ? 1.0 : 5.0 - fullest;
    for (int p = 0; p < s->players; p++) values[p] = s->b[p].score + wall_promise(s, &s->b[p], rounds);
    return 4.0 * sqrt(rounds);
}

#include "_search.h"

/* ------------------------------------------------------------------ the Python type */

static inline int cached_moves(Core *self) {
    if (self->nmoves < 0) self->nmoves = gen_moves(&self->s, self->moves);
    return self->nmoves;
}

static PyObject *Core_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    Core *self = (Core *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    state_new(&self->s, 2, 0, 0, 0);
    rng_seed(self->rng, 0);
    self->nmoves = -1;
    return (PyObject *)self;
}

static int Core_init(Core *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"players", "grey", "jokers", "start_player", NULL};
    int players = 2, grey = 0, jokers = 0, start = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|ippi", kwlist, &players, &grey, &jokers, &start)) return -1;
    if (players < 2 || players > MAX_PLAYERS || start < 0 || start >= players) {
        PyErr_SetString(PyExc_ValueError, "2 to 4 players, and a start player among them");
        return -1;
    }
    state_new(&self->s, players, grey, jokers, start);
    self->nmoves = -1;
    return 0;
}

static PyObject *Core_copy(Core *self, PyObject *unused) {
    PyTypeObject *type = Py_TYPE(self);
    Core *other = (Core *)type->tp_alloc(type, 0);
    if (!other) return NULL;
    memcpy(&other->s, &self->s, sizeof self->s);
    memcpy(other->rng, self->rng, sizeof self->rng);
    other->nmoves = -1;
    return (PyObject *)other;
}

static PyObject *Core_get_current_player(Core *self, void *closure) {
    return PyLong_FromLong(current_player(&self->s));
}

static PyObject *Core_legal_count(Core *self, PyObject *unused) {
    if (self->nmoves < 0 && plain_offer(&self->s)) return PyLong_FromLong(plain_count(&self->s));
    return PyLong_FromLong(cached_moves(self));
}

static PyObject *Core_play_index(Core *self, PyObject *arg) {
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    int plain = self->nmoves < 0 && plain_offer(&self->s);
    int n = plain ? plain_count(&self->s) : cached_moves(self);
    if (i < 0) i += n;
    if (i < 0 || i >= n) {
        PyErr_SetString(PyExc_IndexError, "legal move index out of range");
        return NULL;
    }
    if (plain) {
        Move m;
        plain_nth(&self->s, (int)i, &m);
        play_move(&self->s, &m);
    } else {
        play_move(&self->s, &self->moves[i]);
    }
    self->nmoves = -1;
    Py_RETURN_NONE;
}

static PyObject *Core_greedy_index(Core *self, PyObject *unused) {
    if (plain_offer(&self->s) && plain_count(&self->s)) return PyLong_FromLong(plain_greedy(&self->s));
    int n = cached_moves(self);
    if (!n) {
        PyErr_SetString(PyExc_ValueError, "no player is to move");
        return NULL;
    }
    return PyLong_FromLong(greedy_of(&self->s, self->moves, n));
}

static PyObject *Core_moves(Core *self, PyObject *unused) {
    int n = cached_moves(self);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        const Move *m = &self->moves[i];
        PyObject *t = m->kind == 0
            ? Py_BuildValue("(iiiiii)", 0, m->src, m->color == NO_COLOR ? -1 : m->color, m->line, m->jokers, m->floor_jokers)
            : Py_BuildValue("(iiiiii)", 1, m->src, 0, m->line, 0, 0);
        if (!t) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

static PyObject *Core_deal_random(Core *self, PyObject *unused) {
    if (self->s.phase != PH_DEAL) {
        PyErr_SetString(PyExc_ValueError, "no deal is due");
        return NULL;
    }
    deal_random(&self->s, self->rng);
    self->nmoves = -1;
    Py_RETURN_NONE;
}

/* _deal(counts): apply a deal given as nf * 6 counts (factory by factory, kind by kind), after
 * the checks the reference makes (the bag, then the lid poured in, must be able to give it). */
static PyObject *Core_deal(Core *self, PyObject *arg) {
    State *s = &self->s;
    if (s->phase != PH_DEAL) {
        PyErr_SetString(PyExc_ValueError, "no deal is due");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(arg, "counts must be a sequence");
    if (!seq) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != 6 * s->nf) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a deal has 6 counts for each factory");
        return NULL;
    }
    int counts[MAX_FACTORIES][6], total[6] = {0}, sum = 0;
    for (int f = 0; f < s->nf; f++) {
        int on = 0;
        for (int t = 0; t < 6; t++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, f * 6 + t));
            if (v == -1 && PyErr_Occurred()) { Py_DECREF(seq); return NULL; }
            if (v < 0 || (t == JOKER && v && !s->jokers)) {
                Py_DECREF(seq);
                PyErr_SetString(PyExc_ValueError, "not a tile of this game");
                return NULL;
            }
            counts[f][t] = (int)v;
            on += (int)v;
            total[t] += (int)v;
        }
        if (on > 4) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "more than 4 tiles on a factory");
            return NULL;
        }
        sum += on;
    }
    Py_DECREF(seq);
    State trial = *s;
    pool_hidden(&trial);
    int in_bag = 0, in_spare = 0, ok = 1;
    for (int t = 0; t < 6; t++) { in_bag += trial.bag[t]; in_spare += trial.spare[t]; }
    int expected = 4 * s->nf < in_bag + in_spare ? 4 * s->nf : in_bag + in_spare;
    ok = sum == expected;
    for (int t = 0; t < 6 && ok; t++) {
        if (sum <= in_bag) ok = total[t] <= trial.bag[t];
        else ok = total[t] >= trial.bag[t] && total[t] <= trial.bag[t] + trial.spare[t];
    }
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "the bag and the lid could not have dealt this");
        return NULL;
    }
    *s = trial;
    deal_counts(s, counts);
    self->nmoves = -1;
    Py_RETURN_NONE;
}

static PyObject *Core_seed(Core *self, PyObject *arg) {
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(arg);
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    rng_seed(self->rng, seed);
    Py_RETURN_NONE;
}

static PyObject *Core_scores(Core *self, PyObject *unused) {
    PyObject *list = PyList_New(self->s.players);
    if (!list) return NULL;
    for (int p = 0; p < self->s.players; p++) PyList_SET_ITEM(list, p, PyLong_FromLong(self->s.b[p].score));
    return list;
}

static int winners_of(const State *s, int *out) {
    int best_score = 0, best_rows = 0, n = 0;
    for (int p = 0; p < s->players; p++) {
        int sc = s->b[p].score, rows = complete_rows(&s->b[p]);
        if (p == 0 || sc > best_score || (sc == best_score && rows > best_rows)) { best_score = sc; best_rows = rows; }
    }
    for (int p = 0; p < s->players; p++)
        if (s->b[p].score == best_score && complete_rows(&s->b[p]) == best_rows) out[n++] = p;
    return n;
}

static PyObject *Core_winners(Core *self, PyObject *unused) {
    int w[MAX_PLAYERS], n = winners_of(&self->s, w);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(w[i]));
    return list;
}

/* Each player's (score, points lost to penalties so far, as a positive number). */
static PyObject *points_of(const State *s) {
    PyObject *t = PyTuple_New(s->players);
    if (!t) return NULL;
    for (int p = 0; p < s->players; p++) {
        PyObject *pair = Py_BuildValue("(ii)", s->b[p].score, -s->b[p].penalties);
        if (!pair) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, p, pair);
    }
    return t;
}

static PyObject *Core_points(Core *self, PyObject *unused) { return points_of(&self->s); }

/* playout(wander): the rest of the game by the assistant's quick policy (ai._playout): with
 * probability wander a uniformly random legal move, else the greedy move; deals drawn with the
 * core's generator. Returns (scores, winners, round_end): round_end is each player's (score,
 * penalties lost) when the round under way ended (the game's end, if it ends first). */
static PyObject *Core_playout(Core *self, PyObject *arg) {
    double wander = PyFloat_AsDouble(arg);
    if (wander == -1.0 && PyErr_Occurred()) return NULL;
    State *s = &self->s;
    int round_end[MAX_PLAYERS][2], have = 0;
    for (;;) {
        int to_move = current_player(s);
        if (!have && (to_move == TERMINAL || s->phase == PH_DEAL)) {
            for (int p = 0; p < s->players; p++) { round_end[p][0] = s->b[p].score; round_end[p][1] = -s->b[p].penalties; }
            have = 1;
        }
        if (to_move == TERMINAL) break;
        policy_step(s, self->rng, wander, self->moves);
    }
    self->nmoves = -1;
    int w[MAX_PLAYERS], nw = winners_of(s, w);
    PyObject *scores = PyTuple_New(s->players), *winners = PyTuple_New(nw), *ends = PyTuple_New(s->players);
    if (!scores || !winners || !ends) { Py_XDECREF(scores); Py_XDECREF(winners); Py_XDECREF(ends); return NULL; }
    for (int p = 0; p < s->players; p++) {
        PyTuple_SET_ITEM(scores, p, PyLong_FromLong(s->b[p].score));
        PyTuple_SET_ITEM(ends, p, Py_BuildValue("(ii)", round_end[p][0], round_end[p][1]));
    }
    for (int i = 0; i < nw; i++) PyTuple_SET_ITEM(winners, i, PyLong_FromLong(w[i]));
    return Py_BuildValue("(NNN)", scores, winners, ends);
}

/* random_game(): uniform random play (and random deals) to the game's end; the moves played. */
static PyObject *Core_search(Core *self, PyObject *args) {
    return search_py(&self->s, args);
}

static PyObject *Core_random_game(Core *self, PyObject *unused) {
    State *s = &self->s;
    long played = 0;
    for (;;) {
        int to_move = current_player(s);
        if (to_move == TERMINAL) break;
        if (to_move == CHANCE) {
            deal_random(s, self->rng);
            continue;
        }
        if (plain_offer(s)) {
            Move m;
            plain_nth(s, (int)rng_below(self->rng, (uint32_t)plain_count(s)), &m);
            play_move(s, &m);
        } else {
            int n = gen_moves(s, self->moves);
            play_move(s, &self->moves[rng_below(self->rng, (uint32_t)n)]);
        }
        played++;
    }
    self->nmoves = -1;
    return PyLong_FromLong(played);
}

/* The flat form of a state (engine/fast.py reads and writes it):
 *   players grey jokers pooled round phase to_move start_player first_in_center first_holder
 *   tiling_p tiling_r (0 0 out of the tiling) end_reason has_last last_round_end on_table       (HEAD fields)
 *   bag[6] spare[6] factories[9][6] center[6]
 *   per player: line_color[5] line_count[5] line_jokers[5] wall[25] row_filled[5] row_block[5]
 *               col_colors[5] accept[5] floor_len floor[7] score placement penalties bonus[3] */
#define HEAD 16
#define BOARD_FIELDS 74
#define FLAT_SIZE(players) (HEAD + 12 + 6 * MAX_FACTORIES + 6 + BOARD_FIELDS * (players))

static PyObject *Core_dump(Core *self, PyObject *unused) {
    const State *s = &self->s;
    int64_t v[FLAT_SIZE(MAX_PLAYERS)];
    int n = 0, tiling = s->phase == PH_TILING; /* the cursor means nothing out of the tiling */
    int64_t head[HEAD] = {s->players, s->grey, s->jokers, s->pooled, s->round, s->phase, s->to_move, s->start_player,
                          s->first_in_center, s->first_holder, tiling ? s->tiling_p : 0, tiling ? s->tiling_r : 0, s->end_reason, s->has_last,
                          s->has_last ? s->last_round_end : 0, s->on_table};
    for (int i = 0; i < HEAD; i++) v[n++] = head[i];
    for (int t = 0; t < 6; t++) v[n++] = s->bag[t];
    for (int t = 0; t < 6; t++) v[n++] = s->spare[t];
    for (int f = 0; f < MAX_FACTORIES; f++)
        for (int t = 0; t < 6; t++) v[n++] = s->fac[f][t];
    for (int t = 0; t < 6; t++) v[n++] = s->center[t];
    for (int p = 0; p < s->players; p++) {
        const Board *b = &s->b[p];
        for (int r = 0; r < 5; r++) v[n++] = b->line_color[r];
        for (int r = 0; r < 5; r++) v[n++] = b->line_count[r];
        for (int r = 0; r < 5; r++) v[n++] = b->line_jokers[r];
        for (int i = 0; i < 25; i++) v[n++] = b->wall[i];
        for (int r = 0; r < 5; r++) v[n++] = b->row_filled[r];
        for (int r = 0; r < 5; r++) v[n++] = b->row_block[r];
        for (int r = 0; r < 5; r++) v[n++] = b->col_colors[r];
        for (int r = 0; r < 5; r++) v[n++] = b->accept[r];
        v[n++] = b->floor_len;
        for (int i = 0; i < FLOOR_SIZE; i++) v[n++] = i < b->floor_len ? b->floor[i] : -1;
        v[n++] = b->score;
        v[n++] = b->placement;
        v[n++] = b->penalties;
        for (int k = 0; k < 3; k++) v[n++] = b->bonus[k];
    }
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLongLong(v[i]);
        if (!x) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

static int in_range(int64_t x, int64_t lo, int64_t hi) { return lo <= x && x <= hi; }

static PyObject *Core_load(Core *self, PyObject *arg) {
    PyObject *seq = PySequence_Fast(arg, "a flat state must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(seq);
    int64_t v[FLAT_SIZE(MAX_PLAYERS)];
    int players = size > 0 ? (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, 0)) : 0;
    if (PyErr_Occurred()) { Py_DECREF(seq); return NULL; }
    if (players < 2 || players > MAX_PLAYERS || size != FLAT_SIZE(players)) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "not the flat form of an Azul state");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        v[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v[i] == -1 && PyErr_Occurred()) { Py_DECREF(seq); return NULL; }
    }
    Py_DECREF(seq);
    State s;
    memset(&s, 0, sizeof s);
    int n = 0, ok = 1;
    s.players = (int8_t)players;
    s.nf = (int8_t)(players == 2 ? 5 : players == 3 ? 7 : 9);
    n = 1;
    s.grey = (int8_t)(v[n++] != 0);
    s.jokers = (int8_t)(v[n++] != 0);
    s.pooled = (int8_t)(v[n++] != 0);
    ok &= in_range(v[n], 1, 1000000); s.round = (int32_t)v[n++];
    ok &= in_range(v[n], 0, 3); s.phase = (int8_t)v[n++];
    ok &= in_range(v[n], -2, players - 1); s.to_move = (int8_t)v[n++];
    ok &= in_range(v[n], 0, players - 1); s.start_player = (int8_t)v[n++];
    s.first_in_center = (int8_t)(v[n++] != 0);
    ok &= in_range(v[n], -1, players - 1); s.first_holder = (int8_t)v[n++];
    ok &= in_range(v[n], 0, players - 1); s.tiling_p = (int8_t)v[n++];
    ok &= in_range(v[n], 0, 4); s.tiling_r = (int8_t)v[n++];
    ok &= in_range(v[n], 0, 2); s.end_reason = (int8_t)v[n++];
    s.has_last = (int8_t)(v[n++] != 0);
    s.last_round_end = v[n++];
    ok &= in_range(v[n], 0, 1000000); s.on_table = (int32_t)v[n++];
    for (int t = 0; t < 6; t++) { ok &= in_range(v[n], 0, 200); s.bag[t] = (int32_t)v[n++]; }
    for (int t = 0; t < 6; t++) { ok &= in_range(v[n], 0, 200); s.spare[t] = (int32_t)v[n++]; }
    for (int f = 0; f < MAX_FACTORIES; f++)
        for (int t = 0; t < 6; t++) {
            ok &= in_range(v[n], 0, f < s.nf ? 200 : 0);
            s.fac[f][t] = (uint8_t)v[n++];
        }
    for (int t = 0; t < 6; t++) { ok &= in_range(v[n], 0, 1200); s.center[t] = (int32_t)v[n++]; }
    for (int p = 0; p < players; p++) {
        Board *b = &s.b[p];
        for (int r = 0; r < 5; r++) { ok &= in_range(v[n], -1, 4); b->line_color[r] = (int8_t)v[n++]; }
        for (int r = 0; r < 5; r++) { ok &= in_range(v[n], 0, r + 1); b->line_count[r] = (int8_t)v[n++]; }
        for (int r = 0; r < 5; r++) { ok &= in_range(v[n], 0, r + 1); b->line_jokers[r] = (int8_t)v[n++]; }
        for (int i = 0; i < 25; i++) { ok &= in_range(v[n], -1, 5); b->wall[i] = (int8_t)v[n++]; }
        for (int r = 0; r < 5; r++) { ok &= in_range(v[n], 0, 31); b->row_filled[r] = (uint8_t)v[n++]; }
        for (int r = 0; r < 5; r++) { ok &= in_range(v[n], 0, 31); b->row_block[r] = (uint8_t)v[n++]; }
        for (int r = 0; r < 5; r++) { ok &= in_range(v[n], 0, 31); b->col_colors[r] = (uint8_t)v[n++]; }
        for (int r = 0; r < 5; r++) { ok &= in_range(v[n], 0, 31); b->accept[r] = (uint8_t)v[n++]; }
        ok &= in_range(v[n], 0, FLOOR_SIZE); b->floor_len = (int8_t)v[n++];
        for (int i = 0; i < FLOOR_SIZE; i++) {
            if (i < b->floor_len) ok &= in_range(v[n], 0, MARKER);
            b->floor[i] = (int8_t)(i < b->floor_len ? v[n] : 0);
            n++;
        }
        ok &= in_range(v[n], -1000000, 1000000); b->score = (int32_t)v[n++];
        ok &= in_range(v[n], -1000000, 1000000); b->placement = (int32_t)v[n++];
        ok &= in_range(v[n], -1000000, 1000000); b->penalties = (int32_t)v[n++];
        for (int k = 0; k < 3; k++) { ok &= in_range(v[n], 0, 1000000); b->bonus[k] = (int32_t)v[n++]; }
    }
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "a field of the flat Azul state is out of range");
        return NULL;
    }
    self->s = s;
    self->nmoves = -1;
    Py_RETURN_NONE;
}

static PyMethodDef Core_methods[] = {
    {"copy", (PyCFunction)Core_copy, METH_NOARGS, "An independent copy (its random generator's state too)."},
    {"legal_count", (PyCFunction)Core_legal_count, METH_NOARGS, "How many legal moves the player to move has."},
    {"play_index", (PyCFunction)Core_play_index, METH_O, "Play the i-th legal move (IndexError out of range)."},
    {"greedy_index", (PyCFunction)Core_greedy_index, METH_NOARGS, "The index of greedy_move() among the legal moves."},
    {"deal_random", (PyCFunction)Core_deal_random, METH_NOARGS, "Draw and apply the due deal with the core's generator."},
    {"seed", (PyCFunction)Core_seed, METH_O, "Seed the core's random generator."},
    {"scores", (PyCFunction)Core_scores, METH_NOARGS, "Each player's score."},
    {"winners", (PyCFunction)Core_winners, METH_NOARGS, "The players with the most points (ties: most complete rows)."},
    {"points", (PyCFunction)Core_points, METH_NOARGS, "Each player's (score, points lost to penalties)."},
    {"playout", (PyCFunction)Core_playout, METH_O, "playout(wander) -> (scores, winners, round_end): see the C."},
    {"random_game", (PyCFunction)Core_random_game, METH_NOARGS, "Uniform random play to the end; the moves played."},
    {"search", (PyCFunction)Core_search, METH_VARARGS, "search(seconds, iterations, wander, seed): see _search.h."},
    {"_moves", (PyCFunction)Core_moves, METH_NOARGS, "The legal moves as (kind, a, b, c, d, e) tuples."},
    {"_deal", (PyCFunction)Core_deal, METH_O, "Apply a deal given as 6 counts per factory (checked)."},
    {"_dump", (PyCFunction)Core_dump, METH_NOARGS, "The state's flat form (a tuple of ints)."},
    {"_load", (PyCFunction)Core_load, METH_O, "Set the state from its flat form."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Core_getset[] = {
    {"current_player", (getter)Core_get_current_player, NULL, "The player to move, -1 (chance) or -2 (over).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "azulcam.engine._azul_core.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "An Azul state in the C rules core (engine/fast.py's FastAzul is its Python face).",
    .tp_new = Core_new,
    .tp_init = (initproc)Core_init,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_azul_core", "Azul's rules core in C, for search (see engine/fast.py).", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__azul_core(void) {
    init_tables();
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "FLAT_HEAD", HEAD) < 0 || PyModule_AddIntConstant(m, "BOARD_FIELDS", BOARD_FIELDS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
