/* A compact rules core of Azul: Summer Pavilion, for search (issue 62).
 *
 * A faithful translation of engine/pavilion.py (the reference, which stays the rules of record):
 * the same legal moves in the same order, the same scores, the same chance rules. The Python face
 * (engine/fast.py, FastPavilion) reads a reference state into it and turns its moves back into the
 * reference's own move objects; tests/engine/test_fast_pavilion.py plays it against the reference.
 *
 * Moves are 32-bit codes: bits 0-1 the kind (0 take, 1 place, 2 bonus, 3 pass), then
 *   take:  source bits 2-5 (15: the centre), colour bits 6-8;
 *   place: space bits 2-7, colour bits 8-10, wild tiles bits 11-14;
 *   bonus, pass: 4 bits a colour from bit 2 (the colours taken, or kept on the corners).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define NCOL 6
#define NSTARS 7
#define NSPACES 42
#define NSUPPLY 10
#define MAXF 9
#define MAXP 4
#define MAXCORNERS 16
#define ALL 0x3f
#define ROUNDS 6
#define START_SCORE 5
#define MIN_SCORE 1
#define TILES_PER_COLOR 22
#define NSTRUCT 18
#define SRC_CENTRE 15

enum { DEAL, ACQUIRE, PLACE, BONUS, REFILL, OVER };
#define CHANCE (-1)
#define TERMINAL (-2)

enum { K_TAKE, K_PLACE, K_BONUS, K_PASS };

typedef struct {
    int8_t space[NSPACES];       /* colour on each space, -1 empty */
    uint8_t star_colors[NSTARS]; /* bitmask of colours placed on each star */
    uint8_t star_count[NSTARS];
    uint8_t star_filled[NSTARS]; /* bitmask of the filled spaces of each star */
    int hand[NCOL];
    int8_t corners[MAXCORNERS];
    int ncorners;
    int score, placement, penalties, stars, numbers, passed;
} Board;

typedef struct {
    int players, grey, round, phase, to_move, start_player;
    int first_in_center, first_holder; /* first_holder -1: nobody yet */
    int bag[NCOL], spare[NCOL];
    int8_t supply[NSUPPLY];
    int nf;
    int fac[MAXF][NCOL];
    int center[NCOL];
    int on_table, owed, ended, pooled;
    uint64_t rng;
    Board b[MAXP];
} State;

/* ------------------------------------------------------------------ tables */

static int printed[2][NSPACES];       /* cost of each space: [grey][space] */
static int structures[NSTRUCT][4];    /* spaces of each pillar, statue, window (-1: none) */
static int structure_tiles[NSTRUCT];
static int structures_of[NSPACES][3]; /* structures each space belongs to, -1 ended */
static const int STAR_COLOR[NSTARS] = {-1, 0, 2, 5, 4, 3, 1};
static const int COLOR_STAR_VALUE[NCOL] = {20, 18, 17, 16, 15, 14};
#define MULTICOLOR_STAR_VALUE 12
static const int NUMBER_BONUS[5] = {0, 4, 8, 12, 16};
static int popcount6[64], lowbit6[64];

static void init_tables(void) {
    static const int grey_outer[6] = {3, 2, 1, 4, 5, 6};
    for (int i = 0; i < NSPACES; i++) {
        printed[0][i] = i % 6 + 1;
        printed[1][i] = i < 6 ? 3 : grey_outer[i % 6];
    }
    int j = 0;
    for (int p = 1; p <= 6; p++, j++) { /* pillars */
        int a = (p + 3) % 6 + 1, b = (p + 4) % 6 + 1;
        structures[j][0] = 6 * p + 1; structures[j][1] = 6 * p + 2;
        structures[j][2] = a - 1; structures[j][3] = b - 1;
        structure_tiles[j] = 1;
    }
    for (int s = 1; s <= 6; s++, j++) { /* statues */
        int t = s % 6 + 1;
        structures[j][0] = 6 * s; structures[j][1] = 6 * s + 1;
        structures[j][2] = 6 * t + 2; structures[j][3] = 6 * t + 3;
        structure_tiles[j] = 2;
    }
    for (int s = 1; s <= 6; s++, j++) { /* windows */
        structures[j][0] = 6 * s + 4; structures[j][1] = 6 * s + 5;
        structures[j][2] = -1; structures[j][3] = -1;
        structure_tiles[j] = 3;
    }
    for (int i = 0; i < NSPACES; i++) {
        int n = 0;
        for (int k = 0; k < 3; k++) structures_of[i][k] = -1;
        for (int s = 0; s < NSTRUCT; s++)
            for (int k = 0; k < 4; k++)
                if (structures[s][k] == i && n < 3) structures_of[i][n++] = s;
    }
    for (int m = 0; m < 64; m++) {
        int n = 0, low = -1;
        for (int c = 0; c < 6; c++)
            if (m >> c & 1) { n++; if (low < 0) low = c; }
        popcount6[m] = n;
        lowbit6[m] = low;
    }
}

/* ------------------------------------------------------------------ random numbers (splitmix64) */

static inline uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline int rng_below(uint64_t *s, int n) { /* uniform in 0..n-1 (n > 0) */
    return (int)(((unsigned __int128)rng_next(s) * (uint64_t)n) >> 64);
}

static inline double rng_unit(uint64_t *s) { return (double)(rng_next(s) >> 11) * (1.0 / 9007199254740992.0); }

/* ------------------------------------------------------------------ keep choices (passes) */

/* Every multiset of at most 4 tiles from a hand capped at 4 a colour: the largest first, then in
 * colour order (the reference's _keep_options). Built once per capped hand. */
#define HANDS 15625 /* 5 ** 6 */
static uint32_t *keep_table[HANDS];
static int keep_count[HANDS];

static void keep_dfs(const int *cap, int *used, int from, int left, uint32_t *out, int *n) {
    if (left == 0) {
        uint32_t code = K_PASS;
        for (int c = 0; c < NCOL; c++) code |= (uint32_t)used[c] << (2 + 4 * c);
        out[(*n)++] = code;
        return;
    }
    for (int c = from; c < NCOL; c++) {
        if (used[c] < cap[c]) {
            used[c]++;
            keep_dfs(cap, used, c, left - 1, out, n);
            used[c]--;
        }
    }
}

static const uint32_t PASS_NOTHING = K_PASS;

static const uint32_t *keeps_of(const int *hand, int *count) {
    int cap[NCOL], index = 0, total = 0;
    for (int c = NCOL - 1; c >= 0; c--) {
        cap[c] = hand[c] < 4 ? hand[c] : 4;
        index = index * 5 + cap[c];
        total += cap[c];
    }
    if (!keep_table[index]) {
        uint32_t buf[210];
        int n = 0, used[NCOL] = {0};
        for (int len = total < 4 ? total : 4; len >= 0; len--) keep_dfs(cap, used, 0, len, buf, &n);
        uint32_t *stored = PyMem_RawMalloc(sizeof(uint32_t) * n);
        if (!stored) { *count = 1; return &PASS_NOTHING; } /* not reached in practice; never wrong below */
        memcpy(stored, buf, sizeof(uint32_t) * n);
        keep_count[index] = n;
        keep_table[index] = stored;
    }
    *count = keep_count[index];
    return keep_table[index];
}

/* ------------------------------------------------------------------ legal moves */

typedef struct { uint8_t space, color, lo, n; } PlaceGroup; /* wild tiles lo .. lo + n - 1 */

typedef struct {
    int count;
    int ncodes;
    uint32_t codes[512]; /* takes, or bonus choices */
    int ngroups, nplace;
    PlaceGroup g[NSPACES * NCOL];
    const uint32_t *keeps;
    int nkeeps;
} Moves;

static int allowed_colors(const State *s, const Board *b, int star) {
    int present = b->star_colors[star];
    if (!s->grey) {
        if (star == 0) return ALL & ~present;
        return 1 << STAR_COLOR[star];
    }
    if (b->star_count[star] <= 1) return ALL;
    if (popcount6[present] == 1) return present;
    return ALL & ~present;
}

static void take_codes(Moves *m, const int *pile, int src, int wild) {
    int any = 0;
    for (int c = 0; c < NCOL; c++)
        if (c != wild && pile[c]) { m->codes[m->ncodes++] = K_TAKE | (uint32_t)src << 2 | (uint32_t)c << 6; any = 1; }
    if (!any && pile[wild]) m->codes[m->ncodes++] = K_TAKE | (uint32_t)src << 2 | (uint32_t)wild << 6;
}

static void bonus_dfs(const int *cap, int *used, int from, int left, Moves *m) {
    if (left == 0) {
        uint32_t code = K_BONUS;
        for (int c = 0; c < NCOL; c++) code |= (uint32_t)used[c] << (2 + 4 * c);
        if (m->ncodes < 512) m->codes[m->ncodes++] = code;
        return;
    }
    for (int c = from; c < NCOL; c++) {
        if (used[c] < cap[c]) {
            used[c]++;
            bonus_dfs(cap, used, c, left - 1, m);
            used[c]--;
        }
    }
}

static void gen_moves(const State *s, Moves *m) {
    m->count = m->ncodes = m->ngroups = m->nplace = m->nkeeps = 0;
    m->keeps = NULL;
    int wild = s->round - 1;
    if (s->phase == ACQUIRE) {
        for (int i = 0; i < s->nf; i++) take_codes(m, s->fac[i], i, wild);
        take_codes(m, s->center, SRC_CENTRE, wild);
        m->count = m->ncodes;
    } else if (s->phase == PLACE) {
        const Board *b = &s->b[s->to_move];
        const int *hand = b->hand;
        const int *cost = printed[s->grey];
        int hw = hand[wild], held = 0;
        for (int c = 0; c < NCOL; c++)
            if (hand[c]) held |= 1 << c;
        if (held) {
            for (int star = 0; star < NSTARS; star++) {
                int filled = b->star_filled[star];
                if (filled == ALL) continue;
                int colors = allowed_colors(s, b, star) & held;
                for (int c = 0; c < NCOL; c++) {
                    if (!(colors >> c & 1)) continue;
                    int have = hand[c];
                    for (int k = 0; k < 6; k++) {
                        if (filled >> k & 1) continue;
                        int i = 6 * star + k, price = cost[i];
                        if (c == wild) {
                            if (have >= price) {
                                m->g[m->ngroups++] = (PlaceGroup){(uint8_t)i, (uint8_t)c, 0, 1};
                                m->nplace += 1;
                            }
                            continue;
                        }
                        int lo = price > have ? price - have : 0; /* one tile of the colour at least */
                        int hi = price - 1 < hw ? price - 1 : hw;
                        if (lo <= hi) {
                            m->g[m->ngroups++] = (PlaceGroup){(uint8_t)i, (uint8_t)c, (uint8_t)lo, (uint8_t)(hi - lo + 1)};
                            m->nplace += hi - lo + 1;
                        }
                    }
                }
            }
        }
        if (s->round == ROUNDS) { /* nothing carries over after the last round */
            m->keeps = &PASS_NOTHING;
            m->nkeeps = 1;
        } else {
            m->keeps = keeps_of(hand, &m->nkeeps);
        }
        m->count = m->nplace + m->nkeeps;
    } else if (s->phase == BONUS) {
        int counts[NCOL] = {0}, total = 0, used[NCOL] = {0};
        for (int i = 0; i < NSUPPLY; i++)
            if (s->supply[i] >= 0) { counts[s->supply[i]]++; total++; }
        int n = s->owed < total ? s->owed : total;
        bonus_dfs(counts, used, 0, n, m);
        m->count = m->ncodes;
    }
}

static uint32_t move_code(const Moves *m, int index) {
    if (index < m->ncodes) return m->codes[index];
    index -= m->ncodes;
    if (index < m->nplace) {
        for (int j = 0; j < m->ngroups; j++) {
            const PlaceGroup *g = &m->g[j];
            if (index < g->n)
                return K_PLACE | (uint32_t)g->space << 2 | (uint32_t)g->color << 8 | (uint32_t)(g->lo + index) << 11;
            index -= g->n;
        }
    }
    return m->keeps[index - m->nplace];
}

/* ------------------------------------------------------------------ playing */

static void lose(Board *b, int points) {
    int loss = b->score > MIN_SCORE ? (points < b->score - MIN_SCORE ? points : b->score - MIN_SCORE) : 0;
    b->score -= loss;
    b->penalties -= loss;
}

static int ring_points(const int8_t *space, int i) { /* the tile just placed on ``i`` */
    int base = i - i % 6, k = i % 6, points = 1, j = (k + 1) % 6;
    while (j != k && space[base + j] >= 0) { points++; j = (j + 1) % 6; }
    if (j == k) return 6;
    j = (k + 5) % 6;
    while (space[base + j] >= 0) { points++; j = (j + 5) % 6; }
    return points;
}

static int refill_due(const State *s) {
    int hole = 0, tiles = 0;
    for (int i = 0; i < NSUPPLY; i++) hole |= s->supply[i] < 0;
    for (int c = 0; c < NCOL; c++) tiles |= s->bag[c] | s->spare[c];
    return hole && tiles;
}

static int supply_has_tiles(const State *s) {
    for (int i = 0; i < NSUPPLY; i++)
        if (s->supply[i] >= 0) return 1;
    return 0;
}

static void begin_placing(State *s) {
    s->phase = PLACE;
    if (s->first_holder >= 0) s->start_player = s->first_holder;
    s->to_move = s->start_player;
    for (int p = 0; p < s->players; p++) s->b[p].passed = 0;
}

static void finish(State *s) {
    const int *cost = printed[s->grey];
    for (int p = 0; p < s->players; p++) {
        Board *b = &s->b[p];
        int stars = 0, numbers = 0;
        for (int star = 0; star < NSTARS; star++) {
            if (b->star_count[star] != 6) continue;
            int colors = b->star_colors[star];
            stars += popcount6[colors] == 1 && (s->grey || star != 0) ? COLOR_STAR_VALUE[lowbit6[colors]] : MULTICOLOR_STAR_VALUE;
        }
        for (int number = 1; number <= 4; number++) {
            int all = 1;
            for (int i = 0; i < NSPACES && all; i++)
                if (cost[i] == number && b->space[i] < 0) all = 0;
            if (all) numbers += NUMBER_BONUS[number];
        }
        b->stars = stars;
        b->numbers = numbers;
        b->score += stars + numbers;
        if (b->ncorners) { /* not reached while round-6 passes keep nothing */
            lose(b, b->ncorners);
            for (int k = 0; k < b->ncorners; k++) s->spare[b->corners[k]]++;
            b->ncorners = 0;
        }
    }
    s->phase = OVER;
    s->ended = 1;
}

static void end_round(State *s) {
    if (s->round == ROUNDS) { finish(s); return; }
    for (int p = 0; p < s->players; p++) {
        Board *b = &s->b[p];
        for (int k = 0; k < b->ncorners; k++) b->hand[b->corners[k]]++;
        b->ncorners = 0;
    }
    s->round++;
    s->first_holder = -1;
    s->first_in_center = 1;
    s->to_move = s->start_player;
    s->phase = DEAL;
}

static void next_placer(State *s) {
    int n = s->players, p = s->to_move;
    for (int step = 1; step <= n; step++) {
        int q = ((p + step) % n + n) % n;
        if (!s->b[q].passed) { s->to_move = q; return; }
    }
    end_round(s);
}

static void do_take(State *s, int src, int c) {
    int player = s->to_move, wild = s->round - 1;
    Board *b = &s->b[player];
    int *pile = src == SRC_CENTRE ? s->center : s->fac[src];
    int n = pile[c], w = 0;
    pile[c] = 0;
    if (c != wild && pile[wild]) {
        w = 1;
        pile[wild]--;
    } else if (c == wild && n > 1) { /* only wild tiles: exactly one is taken */
        pile[c] = n - 1;
        n = 1;
    }
    b->hand[c] += n;
    b->hand[wild] += w;
    s->on_table -= n + w;
    if (src != SRC_CENTRE) {
        for (int k = 0; k < NCOL; k++) { s->center[k] += pile[k]; pile[k] = 0; }
    } else if (s->first_in_center) {
        s->first_in_center = 0;
        s->first_holder = player;
        lose(b, n + w);
    }
    if (s->on_table) s->to_move = (player + 1) % s->players;
    else begin_placing(s);
}

static void do_place(State *s, int i, int c, int w) {
    Board *b = &s->b[s->to_move];
    int wild = s->round - 1, cost = printed[s->grey][i], star = i / 6;
    b->hand[c] -= cost - w;
    b->hand[wild] -= w;
    s->spare[c] += cost - w - 1;
    s->spare[wild] += w;
    b->space[i] = (int8_t)c;
    b->star_colors[star] |= (uint8_t)(1 << c);
    b->star_count[star]++;
    b->star_filled[star] |= (uint8_t)(1 << (i - 6 * star));
    int points = ring_points(b->space, i);
    b->score += points;
    b->placement += points;
    int owed = 0;
    for (int k = 0; k < 3 && structures_of[i][k] >= 0; k++) {
        int j = structures_of[i][k], done = 1;
        for (int x = 0; x < 4; x++)
            if (structures[j][x] >= 0 && b->space[structures[j][x]] < 0) done = 0;
        if (done) owed += structure_tiles[j];
    }
    if (owed) {
        if (supply_has_tiles(s)) {
            s->owed = owed;
            s->phase = BONUS;
            return;
        }
        if (refill_due(s)) { /* an empty supply pays nothing, but is refilled at the turn's end */
            s->phase = REFILL;
            return;
        }
    }
    next_placer(s);
}

static void do_bonus(State *s, uint32_t code) {
    Board *b = &s->b[s->to_move];
    for (int c = 0; c < NCOL; c++) {
        int n = (int)(code >> (2 + 4 * c) & 15);
        for (int i = 0; i < NSUPPLY && n; i++)
            if (s->supply[i] == c) { s->supply[i] = -1; b->hand[c]++; n--; }
    }
    s->owed = 0;
    if (refill_due(s)) { s->phase = REFILL; return; }
    s->phase = PLACE;
    next_placer(s);
}

static void do_pass(State *s, uint32_t code) {
    Board *b = &s->b[s->to_move];
    int discarded = 0;
    b->ncorners = 0;
    for (int c = 0; c < NCOL; c++) {
        int n = (int)(code >> (2 + 4 * c) & 15);
        b->hand[c] -= n;
        while (n--) b->corners[b->ncorners++] = (int8_t)c;
    }
    for (int c = 0; c < NCOL; c++) {
        discarded += b->hand[c];
        s->spare[c] += b->hand[c];
        b->hand[c] = 0;
    }
    lose(b, discarded);
    b->passed = 1;
    int all = 1;
    for (int p = 0; p < s->players; p++) all &= s->b[p].passed != 0;
    if (all) end_round(s);
    else next_placer(s);
}

static void play_code(State *s, uint32_t code) {
    switch (code & 3) {
    case K_TAKE: do_take(s, (int)(code >> 2 & 15), (int)(code >> 6 & 7)); break;
    case K_PLACE: do_place(s, (int)(code >> 2 & 63), (int)(code >> 8 & 7), (int)(code >> 11 & 15)); break;
    case K_BONUS: do_bonus(s, code); break;
    default: do_pass(s, code); break;
    }
}

static int current_player(const State *s) {
    if (s->phase == ACQUIRE || s->phase == PLACE || s->phase == BONUS) return s->to_move;
    return s->phase == OVER ? TERMINAL : CHANCE;
}

/* The index of the reference's greedy_move: the most immediate points, the first on ties; -1
 * where there is no legal move. */
static int greedy_index(const State *s, const Moves *m) {
    if (m->count == 0) return -1;
    const Board *b = &s->b[s->to_move];
    if (s->phase == ACQUIRE) {
        int any = 0;
        for (int i = 0; i < s->nf && !any; i++)
            for (int c = 0; c < NCOL; c++) any |= s->fac[i][c];
        if (!s->first_in_center || any) return 0; /* a take scoring 0: none scores more */
        int wild = s->round - 1, best = 0, best_points = 0, cap = b->score - MIN_SCORE > 0 ? b->score - MIN_SCORE : 0;
        for (int j = 0; j < m->ncodes; j++) { /* all from the centre, which holds the token */
            int c = (int)(m->codes[j] >> 6 & 7), n = s->center[c];
            if (c == wild) n = 1;
            else if (s->center[wild]) n += 1;
            int points = -(n < cap ? n : cap);
            if (j == 0 || points > best_points) { best = j; best_points = points; }
        }
        return best;
    }
    if (s->phase == PLACE) {
        int best = -1, best_points = 0, offset = 0;
        for (int j = 0; j < m->ngroups; j++) {
            int points = ring_points(b->space, m->g[j].space);
            if (points > best_points) { best_points = points; best = offset; }
            offset += m->g[j].n;
        }
        if (best >= 0) return best;
        int held = 0, cap = b->score - MIN_SCORE > 0 ? b->score - MIN_SCORE : 0, best_pass = 0;
        for (int c = 0; c < NCOL; c++) held += b->hand[c];
        for (int j = 0; j < m->nkeeps; j++) {
            int kept = 0;
            for (int c = 0; c < NCOL; c++) kept += (int)(m->keeps[j] >> (2 + 4 * c) & 15);
            int n = held - kept, points = -(n < cap ? n : cap);
            if (best < 0 || points > best_pass) { best = j; best_pass = points; }
        }
        return m->nplace + best;
    }
    return 0; /* bonus: every choice scores its count of tiles */
}

/* ------------------------------------------------------------------ chance */

static int is_setup(const State *s) {
    if (!(s->round == 1 && s->phase == DEAL)) return 0;
    int bag = 0;
    for (int i = 0; i < NSUPPLY; i++)
        if (s->supply[i] >= 0) return 0;
    for (int c = 0; c < NCOL; c++) bag += s->bag[c];
    return bag == NCOL * TILES_PER_COLOR;
}

static void pour(State *s) {
    for (int c = 0; c < NCOL; c++) { s->bag[c] += s->spare[c]; s->spare[c] = 0; }
}

/* Draw up to ``need`` tiles at random from the bag, the tower poured in once it runs out. */
static int draw(State *s, int need, int8_t *out) {
    int in_bag = 0, n = 0;
    if (s->pooled) pour(s);
    for (int c = 0; c < NCOL; c++) in_bag += s->bag[c];
    while (n < need) {
        if (!in_bag) {
            pour(s);
            for (int c = 0; c < NCOL; c++) in_bag += s->bag[c];
            if (!in_bag) break;
        }
        int r = rng_below(&s->rng, in_bag), c = 0;
        while (r >= s->bag[c]) r -= s->bag[c++];
        s->bag[c]--;
        in_bag--;
        out[n++] = (int8_t)c;
    }
    return n;
}

static void after_deal(State *s) {
    s->phase = ACQUIRE;
    s->to_move = s->start_player;
    if (!s->on_table) begin_placing(s); /* bag and tower empty: nothing to take */
}

static void after_refill(State *s) {
    s->phase = PLACE;
    next_placer(s);
}

static void deal_random(State *s) {
    int8_t tiles[NSUPPLY + 4 * MAXF];
    if (s->phase == DEAL) {
        int setup = is_setup(s), supply_n = setup ? NSUPPLY : 0;
        int n = draw(s, supply_n + 4 * s->nf, tiles);
        for (int i = 0; i < supply_n; i++) s->supply[i] = tiles[i];
        for (int i = supply_n; i < n; i++) s->fac[(i - supply_n) / 4][tiles[i]]++;
        s->on_table = n - supply_n;
        after_deal(s);
    } else if (s->phase == REFILL) {
        int empty[NSUPPLY], ne = 0;
        for (int i = 0; i < NSUPPLY; i++)
            if (s->supply[i] < 0) empty[ne++] = i;
        int n = draw(s, ne, tiles);
        for (int i = 0; i < n; i++) s->supply[empty[i]] = tiles[i];
        after_refill(s);
    }
}

/* The reference's check_draw: NULL when ``counts`` could be drawn, ``wanted`` being due. */
static const char *check_draw(State *s, const int *counts, int wanted) {
    if (s->pooled) pour(s);
    int in_bag = 0, in_spare = 0, total = 0;
    for (int c = 0; c < NCOL; c++) { in_bag += s->bag[c]; in_spare += s->spare[c]; total += counts[c]; }
    int expected = wanted < in_bag + in_spare ? wanted : in_bag + in_spare;
    if (total != expected) return "the draw holds the wrong number of tiles";
    int poured = total > in_bag;
    for (int c = 0; c < NCOL; c++) {
        if (!poured) {
            if (counts[c] > s->bag[c]) return "more tiles of a colour than the bag holds";
        } else if (counts[c] < s->bag[c]) {
            return "the bag ran out but still holds a colour not drawn";
        } else if (counts[c] > s->bag[c] + s->spare[c]) {
            return "more tiles of a colour than the bag and the tower hold";
        }
    }
    return NULL;
}

static void take_from_bag(State *s, const int *counts) {
    int total = 0, in_bag = 0;
    for (int c = 0; c < NCOL; c++) { total += counts[c]; in_bag += s->bag[c]; }
    if (total > in_bag) pour(s);
    for (int c = 0; c < NCOL; c++) s->bag[c] -= counts[c];
}

/* ------------------------------------------------------------------ the Python type */

/* ------------------------------------------------------------------ the assistant's search */

#define MAXPLAYERS MAXP
#define SEARCH_MAX_MOVES 4096
static int winners_of(const State *s, int *out);

typedef struct {
    uint64_t rng;
    Moves moves;
} SearchScratch;

/* What a move brings at once, for the order the tree tries moves in: a placement's points, a
 * bonus's tiles, a take's tiles (less the starting player's token's loss), a pass's loss. */
static int code_points(const State *s, uint32_t code) {
    const Board *b = &s->b[s->to_move];
    int wild = s->round - 1;
    switch (code & 3) {
    case K_TAKE: {
        int src = (int)(code >> 2 & 15), c = (int)(code >> 6 & 7);
        const int *pile = src == SRC_CENTRE ? s->center : s->fac[src];
        int n = c == wild ? 1 : pile[c] + (pile[wild] ? 1 : 0);
        return src == SRC_CENTRE && s->first_in_center ? 0 : n;
    }
    case K_PLACE: return ring_points(b->space, (int)(code >> 2 & 63));
    case K_BONUS: {
        int n = 0;
        for (int c = 0; c < NCOL; c++) n += (int)(code >> (2 + 4 * c) & 15);
        return n;
    }
    default: {
        int held = 0;
        for (int c = 0; c < NCOL; c++) held += b->hand[c] - (int)(code >> (2 + 4 * c) & 15);
        return -held;
    }
    }
}

static int search_moves(const State *s, SearchScratch *w, uint32_t *codes, int *points) {
    gen_moves(s, &w->moves);
    int n = w->moves.count;
    if (n > SEARCH_MAX_MOVES) return -1;
    for (int i = 0; i < n; i++) {
        codes[i] = move_code(&w->moves, i);
        points[i] = code_points(s, codes[i]);
    }
    return n;
}

static void search_play(State *s, uint32_t code) { play_code(s, code); }
static void search_seed(SearchScratch *w, uint64_t seed) { w->rng = seed; }
static void search_reseed(State *s, SearchScratch *w) { s->rng = rng_next(&w->rng); }

/* One move of the quick policy (the playouts' own: greedy, or with probability wander random),
 * or the refill due. */
static void search_step(State *s, SearchScratch *w, double wander) {
    if (current_player(s) == CHANCE) { deal_random(s); return; }
    gen_moves(s, &w->moves);
    if (!w->moves.count) { s->phase = OVER; return; } /* not reached: a player to move has a move */
    int i = !(wander > 0 && rng_unit(&s->rng) < wander) ? greedy_index(s, &w->moves) : rng_below(&s->rng, w->moves.count);
    play_code(s, move_code(&w->moves, i));
}

static int search_round_over(const State *s) { return s->phase == DEAL || s->phase == OVER; }
static int search_score(const State *s, int p) { return s->b[p].score; }
static int search_lost(const State *s, int p) { return -s->b[p].penalties; }

/* Each player's score, the tiles kept for the next round, and the end bonuses in reach, each
 * star and number weighed by the square of its share done; the spread grows with the rounds left. */
static double search_values(const State *s, double *values) {
    double rounds = ROUNDS - s->round + 1;
    const int *cost = printed[s->grey];
    for (int p = 0; p < s->players; p++) {
        const Board *b = &s->b[p];
        double v = b->score;
        for (int c = 0; c < NCOL; c++) v += 0.5 * b->hand[c]; /* a kept tile: half a tile bought */
        for (int star = 0; star < NSTARS; star++) {
            int k = b->star_count[star], colors = b->star_colors[star];
            if (!k) continue;
            int worth = star == 0 && !s->grey ? MULTICOLOR_STAR_VALUE
                        : popcount6[colors] == 1 ? COLOR_STAR_VALUE[lowbit6[colors]] : MULTICOLOR_STAR_VALUE;
            v += worth * (k / 6.0) * (k / 6.0);
        }
        for (int number = 1; number <= 4; number++) {
            int filled = 0, all = 0;
            for (int i = 0; i < NSPACES; i++)
                if (cost[i] == number) { all++; filled += b->space[i] >= 0; }
            if (all) v += NUMBER_BONUS[number] * ((double)filled / all) * ((double)filled / all);
        }
        values[p] = v;
    }
    return 6.0 * sqrt(rounds);
}

#include "_search.h"

typedef struct {
    PyObject_HEAD
    State s;
    uint64_t gen; /* changes with every change of the state: the legal moves' cache key */
} Core;

static uint64_t generation = 0;
static Moves cache;
static uint64_t cache_gen = 0;

static inline void touched(Core *self) { self->gen = ++generation; }

static const Moves *moves_of(Core *self) {
    if (cache_gen != self->gen) {
        gen_moves(&self->s, &cache);
        cache_gen = self->gen;
    }
    return &cache;
}

static int read_ints(PyObject *seq, int *out, Py_ssize_t n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: %zd values wanted", what, n);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        if (v < -1000000 || v > 1000000) {
            PyErr_Format(PyExc_ValueError, "%s: value out of range", what);
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

static int colour_ok(int c) { return c >= 0 && c < NCOL; }

/* Core(data): ``data`` as engine/fast.py's _data_of reads it from a reference state. */
static PyObject *Core_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    PyObject *data, *bag, *spare, *supply, *facs, *center, *boards;
    State st;
    memset(&st, 0, sizeof st);
    if (!PyArg_ParseTuple(args, "O!:Core", &PyTuple_Type, &data)) return NULL;
    if (!PyArg_ParseTuple(data, "iiiiiiiiOOOOOiiiiO:Core data", &st.players, &st.grey, &st.round, &st.phase,
                          &st.to_move, &st.start_player, &st.first_in_center, &st.first_holder, &bag, &spare,
                          &supply, &facs, &center, &st.on_table, &st.owed, &st.ended, &st.pooled, &boards))
        return NULL;
    if (st.players < 2 || st.players > MAXP || st.round < 1 || st.round > ROUNDS || st.phase < DEAL ||
        st.phase > OVER || st.to_move < TERMINAL || st.to_move >= st.players || st.start_player < 0 ||
        st.start_player >= st.players || st.first_holder < -1 || st.first_holder >= st.players) {
        PyErr_SetString(PyExc_ValueError, "Core: a turn field out of range");
        return NULL;
    }
    int sup[NSUPPLY];
    if (read_ints(bag, st.bag, NCOL, "bag") || read_ints(spare, st.spare, NCOL, "tower") ||
        read_ints(supply, sup, NSUPPLY, "supply") || read_ints(center, st.center, NCOL, "center"))
        return NULL;
    for (int i = 0; i < NSUPPLY; i++) {
        if (sup[i] < -1 || sup[i] >= NCOL) { PyErr_SetString(PyExc_ValueError, "supply: not a colour"); return NULL; }
        st.supply[i] = (int8_t)sup[i];
    }
    st.nf = st.players * 2 + 1;
    if (!PySequence_Check(facs) || PySequence_Size(facs) != st.nf) {
        PyErr_SetString(PyExc_ValueError, "factories: one pile per factory wanted");
        return NULL;
    }
    for (int i = 0; i < st.nf; i++) {
        PyObject *f = PySequence_GetItem(facs, i);
        int bad = !f || read_ints(f, st.fac[i], NCOL, "factory");
        Py_XDECREF(f);
        if (bad) return NULL;
    }
    if (!PySequence_Check(boards) || PySequence_Size(boards) != st.players) {
        PyErr_SetString(PyExc_ValueError, "boards: one board per player wanted");
        return NULL;
    }
    for (int p = 0; p < st.players; p++) {
        Board *b = &st.b[p];
        PyObject *bd = PySequence_GetItem(boards, p), *space, *hand, *corners;
        if (!bd) return NULL;
        int ok = PyArg_ParseTuple(bd, "OOOiiiiii:board", &space, &hand, &corners, &b->score, &b->placement,
                                  &b->penalties, &b->stars, &b->numbers, &b->passed);
        int sp[NSPACES];
        if (ok) ok = !read_ints(space, sp, NSPACES, "spaces") && !read_ints(hand, b->hand, NCOL, "hand");
        if (ok) {
            Py_ssize_t nc = PySequence_Size(corners);
            if (nc < 0 || nc > MAXCORNERS) {
                if (nc >= 0) PyErr_SetString(PyExc_ValueError, "corners: too many tiles");
                ok = 0;
            } else {
                int cs[MAXCORNERS];
                ok = !read_ints(corners, cs, nc, "corners");
                for (Py_ssize_t k = 0; ok && k < nc; k++) {
                    if (!colour_ok(cs[k])) { PyErr_SetString(PyExc_ValueError, "corners: not a colour"); ok = 0; }
                    else b->corners[k] = (int8_t)cs[k];
                }
                b->ncorners = (int)nc;
            }
        }
        Py_DECREF(bd);
        if (!ok) return NULL;
        for (int i = 0; i < NSPACES; i++) {
            if (sp[i] < -1 || sp[i] >= NCOL) { PyErr_SetString(PyExc_ValueError, "spaces: not a colour"); return NULL; }
            b->space[i] = (int8_t)sp[i];
            if (sp[i] >= 0) {
                b->star_colors[i / 6] |= (uint8_t)(1 << sp[i]);
                b->star_count[i / 6]++;
                b->star_filled[i / 6] |= (uint8_t)(1 << (i % 6));
            }
        }
        b->passed = b->passed != 0;
    }
    Core *self = (Core *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    self->s = st;
    touched(self);
    return (PyObject *)self;
}

static PyObject *Core_copy(Core *self, PyObject *unused) {
    Core *c = (Core *)Py_TYPE(self)->tp_alloc(Py_TYPE(self), 0);
    if (!c) return NULL;
    c->s = self->s;
    touched(c);
    return (PyObject *)c;
}

static PyObject *Core_legal_count(Core *self, PyObject *unused) { return PyLong_FromLong(moves_of(self)->count); }

static PyObject *Core_legal_codes(Core *self, PyObject *unused) {
    const Moves *m = moves_of(self);
    PyObject *out = PyList_New(m->count);
    if (!out) return NULL;
    for (int i = 0; i < m->count; i++) {
        PyObject *v = PyLong_FromUnsignedLong(move_code(m, i));
        if (!v) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

static PyObject *Core_play_index(Core *self, PyObject *arg) {
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    const Moves *m = moves_of(self);
    if (i < 0) i += m->count;
    if (i < 0 || i >= m->count) {
        PyErr_SetString(PyExc_IndexError, "legal move index out of range");
        return NULL;
    }
    play_code(&self->s, move_code(m, (int)i));
    touched(self);
    Py_RETURN_NONE;
}

static PyObject *Core_greedy_index(Core *self, PyObject *unused) {
    return PyLong_FromLong(greedy_index(&self->s, moves_of(self)));
}

static PyObject *Core_deal_random(Core *self, PyObject *unused) {
    int phase = self->s.phase;
    if (phase != DEAL && phase != REFILL) {
        PyErr_SetString(PyExc_ValueError, "no chance event is due");
        return NULL;
    }
    deal_random(&self->s);
    touched(self);
    Py_RETURN_NONE;
}

/* apply_deal(factories, supply): the tiles of each factory and of the supply (None after setup)
 * as colour numbers, checked against the bag and the tower as the reference checks them. */
static PyObject *Core_apply_deal(Core *self, PyObject *args) {
    PyObject *facs, *supply;
    State *s = &self->s;
    if (!PyArg_ParseTuple(args, "OO:apply_deal", &facs, &supply)) return NULL;
    if (s->phase != DEAL) { PyErr_SetString(PyExc_ValueError, "no deal is due"); return NULL; }
    if (!PySequence_Check(facs) || PySequence_Size(facs) != s->nf) {
        PyErr_SetString(PyExc_ValueError, "a deal fills every factory");
        return NULL;
    }
    int dealt[MAXF][4], sizes[MAXF], counts[NCOL] = {0}, sup[NSUPPLY], setup = is_setup(s), total = 0;
    for (int i = 0; i < s->nf; i++) {
        PyObject *f = PySequence_GetItem(facs, i);
        if (!f) return NULL;
        Py_ssize_t n = PySequence_Size(f);
        if (n < 0 || n > 4) {
            Py_DECREF(f);
            if (n >= 0) PyErr_SetString(PyExc_ValueError, "a factory holds 4 tiles at most");
            return NULL;
        }
        int bad = read_ints(f, dealt[i], n, "factory");
        Py_DECREF(f);
        if (bad) return NULL;
        sizes[i] = (int)n;
        for (int k = 0; k < n; k++) {
            if (!colour_ok(dealt[i][k])) { PyErr_SetString(PyExc_ValueError, "not a colour"); return NULL; }
            counts[dealt[i][k]]++;
            total += 1;
        }
    }
    if (setup != (supply != Py_None)) {
        PyErr_SetString(PyExc_ValueError, setup ? "the setup deal fills the supply" : "only the setup deal fills the supply");
        return NULL;
    }
    if (setup) {
        if (read_ints(supply, sup, NSUPPLY, "supply")) return NULL;
        for (int i = 0; i < NSUPPLY; i++) {
            if (!colour_ok(sup[i])) { PyErr_SetString(PyExc_ValueError, "not a colour"); return NULL; }
            counts[sup[i]]++;
        }
    }
    const char *why = check_draw(s, counts, NSUPPLY * setup + 4 * s->nf);
    touched(self);
    if (why) { PyErr_SetString(PyExc_ValueError, why); return NULL; }
    take_from_bag(s, counts);
    if (setup)
        for (int i = 0; i < NSUPPLY; i++) s->supply[i] = (int8_t)sup[i];
    for (int i = 0; i < s->nf; i++)
        for (int k = 0; k < sizes[i]; k++) s->fac[i][dealt[i][k]]++;
    s->on_table = total;
    after_deal(s);
    Py_RETURN_NONE;
}

/* apply_refill(tiles): the tiles put on the empty supply spaces, in space order. */
static PyObject *Core_apply_refill(Core *self, PyObject *arg) {
    State *s = &self->s;
    if (s->phase != REFILL) { PyErr_SetString(PyExc_ValueError, "no refill is due"); return NULL; }
    Py_ssize_t n = PySequence_Size(arg);
    if (n < 0) return NULL;
    int empty[NSUPPLY], ne = 0, tiles[NSUPPLY], counts[NCOL] = {0};
    for (int i = 0; i < NSUPPLY; i++)
        if (s->supply[i] < 0) empty[ne++] = i;
    if (n > ne) { PyErr_SetString(PyExc_ValueError, "more tiles than empty supply spaces"); return NULL; }
    if (read_ints(arg, tiles, n, "refill")) return NULL;
    for (int i = 0; i < n; i++) {
        if (!colour_ok(tiles[i])) { PyErr_SetString(PyExc_ValueError, "not a colour"); return NULL; }
        counts[tiles[i]]++;
    }
    const char *why = check_draw(s, counts, ne);
    touched(self);
    if (why) { PyErr_SetString(PyExc_ValueError, why); return NULL; }
    take_from_bag(s, counts);
    for (int i = 0; i < n; i++) s->supply[empty[i]] = (int8_t)tiles[i];
    after_refill(s);
    Py_RETURN_NONE;
}

static PyObject *Core_seed(Core *self, PyObject *arg) {
    unsigned long long v = PyLong_AsUnsignedLongLongMask(arg);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    self->s.rng = v;
    Py_RETURN_NONE;
}

static PyObject *int_list(const int *v, int n) {
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(v[i]));
    return out;
}

static PyObject *Core_scores(Core *self, PyObject *unused) {
    int v[MAXP];
    for (int p = 0; p < self->s.players; p++) v[p] = self->s.b[p].score;
    return int_list(v, self->s.players);
}

static int winners_of(const State *s, int *out) { /* no tie-break: a tie on points is shared */
    int best = s->b[0].score, n = 0;
    for (int p = 1; p < s->players; p++)
        if (s->b[p].score > best) best = s->b[p].score;
    for (int p = 0; p < s->players; p++)
        if (s->b[p].score == best) out[n++] = p;
    return n;
}

static PyObject *Core_winners(Core *self, PyObject *unused) {
    int v[MAXP], n = winners_of(&self->s, v);
    return int_list(v, n);
}

static PyObject *Core_export(Core *self, PyObject *unused) {
    const State *s = &self->s;
    int sup[NSUPPLY];
    for (int i = 0; i < NSUPPLY; i++) sup[i] = s->supply[i];
    PyObject *facs = PyList_New(s->nf), *boards = PyList_New(s->players);
    if (!facs || !boards) { Py_XDECREF(facs); Py_XDECREF(boards); return NULL; }
    for (int i = 0; i < s->nf; i++) PyList_SET_ITEM(facs, i, int_list(s->fac[i], NCOL));
    for (int p = 0; p < s->players; p++) {
        const Board *b = &s->b[p];
        int sp[NSPACES], cs[MAXCORNERS];
        for (int i = 0; i < NSPACES; i++) sp[i] = b->space[i];
        for (int k = 0; k < b->ncorners; k++) cs[k] = b->corners[k];
        PyList_SET_ITEM(boards, p, Py_BuildValue("(NNNiiiiii)", int_list(sp, NSPACES), int_list(b->hand, NCOL),
                                                  int_list(cs, b->ncorners), b->score, b->placement, b->penalties,
                                                  b->stars, b->numbers, b->passed));
    }
    return Py_BuildValue("(iiiiiiiiNNNNNiiiiN)", s->players, s->grey, s->round, s->phase, s->to_move, s->start_player,
                         s->first_in_center, s->first_holder, int_list(s->bag, NCOL), int_list(s->spare, NCOL),
                         int_list(sup, NSUPPLY), facs, int_list(s->center, NCOL), s->on_table, s->owed, s->ended,
                         s->pooled, boards);
}

/* Play to the end: with probability ``wander`` a uniformly random legal move, else the greedy
 * move; chance drawn by the core. ``record`` gets each player's (score, penalties lost) when the
 * current round ended. Returns the moves played, or -1 where a player has no legal move. */
static int play_out(State *s, double wander, int greedy, int *record_score, int *record_lost) {
    Moves *m = PyMem_RawMalloc(sizeof(Moves));
    int played = 0, recorded = 0;
    if (!m) return -2;
    for (;;) {
        int cp = current_player(s);
        if (!recorded && (cp == TERMINAL || (cp == CHANCE && s->phase == DEAL))) {
            recorded = 1;
            if (record_score)
                for (int p = 0; p < s->players; p++) { record_score[p] = s->b[p].score; record_lost[p] = -s->b[p].penalties; }
        }
        if (cp == TERMINAL) break;
        if (cp == CHANCE) { deal_random(s); continue; }
        gen_moves(s, m);
        if (m->count == 0) { played = -1; break; }
        /* (no draw where ``wander`` is 0: a greedy playout is the per-ply API's greedy loop) */
        int i = greedy && !(wander > 0 && rng_unit(&s->rng) < wander) ? greedy_index(s, m) : rng_below(&s->rng, m->count);
        play_code(s, move_code(m, i));
        played++;
    }
    PyMem_RawFree(m);
    return played;
}

static PyObject *Core_playout(Core *self, PyObject *arg) {
    double wander = PyFloat_AsDouble(arg);
    if (wander == -1.0 && PyErr_Occurred()) return NULL;
    int score[MAXP], lost[MAXP], win[MAXP];
    int played = play_out(&self->s, wander, 1, score, lost);
    touched(self);
    if (played == -2) return PyErr_NoMemory();
    if (played < 0) { PyErr_SetString(PyExc_RuntimeError, "a player to move has no legal move"); return NULL; }
    State *s = &self->s;
    int n = winners_of(s, win);
    PyObject *scores = PyTuple_New(s->players), *winners = PyTuple_New(n), *rounds = PyTuple_New(s->players);
    if (!scores || !winners || !rounds) { Py_XDECREF(scores); Py_XDECREF(winners); Py_XDECREF(rounds); return NULL; }
    for (int p = 0; p < s->players; p++) {
        PyTuple_SET_ITEM(scores, p, PyLong_FromLong(s->b[p].score));
        PyTuple_SET_ITEM(rounds, p, Py_BuildValue("(ii)", score[p], lost[p]));
    }
    for (int k = 0; k < n; k++) PyTuple_SET_ITEM(winners, k, PyLong_FromLong(win[k]));
    return Py_BuildValue("(NNN)", scores, winners, rounds);
}

static PyObject *Core_search(Core *self, PyObject *args) { return search_py(&self->s, args); }

static PyObject *Core_random_game(Core *self, PyObject *unused) {
    int played = play_out(&self->s, 1.0, 0, NULL, NULL);
    touched(self);
    if (played == -2) return PyErr_NoMemory();
    if (played < 0) { PyErr_SetString(PyExc_RuntimeError, "a player to move has no legal move"); return NULL; }
    return PyLong_FromLong(played);
}

static PyObject *Core_get_current_player(Core *self, void *closure) { return PyLong_FromLong(current_player(&self->s)); }
static PyObject *Core_get_phase_index(Core *self, void *closure) { return PyLong_FromLong(self->s.phase); }
static PyObject *Core_get_round(Core *self, void *closure) { return PyLong_FromLong(self->s.round); }
static PyObject *Core_get_players(Core *self, void *closure) { return PyLong_FromLong(self->s.players); }

static PyMethodDef Core_methods[] = {
    {"copy", (PyCFunction)Core_copy, METH_NOARGS, "An independent copy (its random stream too)."},
    {"legal_count", (PyCFunction)Core_legal_count, METH_NOARGS, "How many legal moves there are."},
    {"legal_codes", (PyCFunction)Core_legal_codes, METH_NOARGS, "The legal moves' codes, in legal order."},
    {"play_index", (PyCFunction)Core_play_index, METH_O, "Play the i-th legal move."},
    {"greedy_index", (PyCFunction)Core_greedy_index, METH_NOARGS, "The index of the greedy move (-1: no move)."},
    {"deal_random", (PyCFunction)Core_deal_random, METH_NOARGS, "Draw and apply the due chance event."},
    {"apply_deal", (PyCFunction)Core_apply_deal, METH_VARARGS, "Apply a deal (colour numbers), checked."},
    {"apply_refill", (PyCFunction)Core_apply_refill, METH_O, "Apply a supply refill (colour numbers), checked."},
    {"seed", (PyCFunction)Core_seed, METH_O, "Seed the core's random stream."},
    {"scores", (PyCFunction)Core_scores, METH_NOARGS, "Each player's score."},
    {"winners", (PyCFunction)Core_winners, METH_NOARGS, "The players with the most points."},
    {"export", (PyCFunction)Core_export, METH_NOARGS, "The state's fields, as Core() reads them (and in the same shapes)."},
    {"playout", (PyCFunction)Core_playout, METH_O, "Play to the end by the quick policy: (scores, winners, round end)."},
    {"random_game", (PyCFunction)Core_random_game, METH_NOARGS, "Play to the end uniformly at random: the moves played."},
    {"search", (PyCFunction)Core_search, METH_VARARGS, "search(seconds, iterations, wander, seed): see _search.h."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Core_getset[] = {
    {"current_player", (getter)Core_get_current_player, NULL, "The player to move, -1 chance, -2 over.", NULL},
    {"phase_index", (getter)Core_get_phase_index, NULL, "The phase's number, as the reference's _phase.", NULL},
    {"round", (getter)Core_get_round, NULL, "The round, 1 to 6.", NULL},
    {"players", (getter)Core_get_players, NULL, "The number of players.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "azulcam.engine._pavilion_core.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A Summer Pavilion state in the C rules core (see engine/fast.py).",
    .tp_new = Core_new,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_pavilion_core", "The rules core of Summer Pavilion, in C (engine/fast.py).", -1,
    NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__pavilion_core(void) {
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
    return m;
}
