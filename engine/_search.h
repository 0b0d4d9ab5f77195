/* The assistant's search, shared by the rules cores: Monte Carlo tree search (UCT) over the round
 * under way, each leaf judged at the round's end by the game's own reckoning of what a board is
 * worth, not by a playout to the game's end.
 *
 * Within a round there is no chance (the deal came before it; a Summer Pavilion supply refill is
 * drawn in the rollout), so the round is a game of perfect information: the tree holds each
 * player's moves, children ordered by their immediate points and let in as visits grow
 * (progressive widening), each node keeping the results of the player who moved into it (max^n,
 * so three and four players too). A leaf is played to the round's end by the quick policy (the
 * greedy move, or with probability ``wander`` a random one); the round's end is then judged by
 * ``search_values``: each player's score plus what the board promises (end bonuses in reach,
 * tiles carried over), and the result for a player is the chance that its lead over the best
 * other player holds, a logistic of that lead on the spread the rounds left allow. Where the game
 * ends, the result is a logistic of the player's final margin over the best other player
 * (SEARCH_MARGIN). With ``to_end``, a line goes on past the round's end by the quick policy to
 * the game's end (the deals drawn from the tiles every player can count) and is judged so: what
 * the board promises is then played out, not estimated.
 *
 * The including core defines, before including this file:
 *   State, MAXPLAYERS, CHANCE, TERMINAL, current_player(const State *), winners_of(state, out);
 *   SearchScratch (a move buffer and a random stream), and
 *   int  search_moves(const State *, SearchScratch *, uint32_t *codes, int *points): every legal
 *        move's code (legal order) and immediate points; the count;
 *   void search_play(State *, uint32_t code);
 *   void search_seed(SearchScratch *, uint64_t seed): the search's random stream;
 *   void search_reseed(State *, SearchScratch *): a fresh random stream for one iteration's state;
 *   void search_step(State *, SearchScratch *, double wander): one move (or draw) of the rollout;
 *   int  search_round_over(const State *): a deal is due, or the game is over;
 *   double search_values(const State *, double *values): each player's expected final score,
 *        and the spread (points) of the final margin from this state;
 *   int  search_score(const State *, int p), search_lost(const State *, int p): the score, and
 *        the points lost so far (positive).
 */

#include <math.h>
#include <stdlib.h>
#include <time.h>

/* UCB1's exploration constant, on results between 0 and 1. */
#define SEARCH_EXPLORE 0.35
/* A leaf is expanded once visited this often: fewer nodes, each better informed. */
#define SEARCH_EXPAND_AT 2
/* Children in play: the first SEARCH_WIDTH by immediate points, one more every sqrt-visit. */
#define SEARCH_WIDTH 6
#define SEARCH_MAX_NODES (6 * 1024 * 1024)
/* Lines to the round's end that each root move's reasons are reckoned on (the refills within
 * the round drawn afresh in each); a core whose rounds hold no chance defines 1. */
#ifndef SEARCH_REASON_LINES
#define SEARCH_REASON_LINES 16
#endif
#define SEARCH_MAX_DEPTH 512
/* A line that reaches the game's end is judged by its final margin over the best other player, a
 * logistic on this many points, not by who won: a line won by a point counts little more than a
 * draw and one won by twenty nearly in full, which tells moves apart where most lines of each are
 * won, or lost. (Tuning games, 200 at 0.05 s a move against the same search judging by who won:
 * 2 points won 56.8%, 4 points 63.0%, 8 points 57.0%, 16 points 51.5%.) */
#define SEARCH_MARGIN 4.0

typedef struct {
    uint32_t code;
    int32_t first; /* its children's block, -1 until expanded */
    int32_t visits;
    float value; /* summed results of ``mover`` (what the search steers by) */
    float won;   /* summed chances that ``mover`` wins: 1, a share or 0 where the line reached the game's end */
    uint16_t n;  /* children */
    int8_t mover;
} SearchNode;

/* What the search found for one root move: how often it was searched, its mean result and its
 * share of lines won (a line that stops at the round's end counts its estimated chance), and, at
 * the round's end on the lines it expects after the move (SEARCH_REASON_LINES of them), the
 * mover's points gained and lost and the next player's points gained; the next player's most
 * searched answer. */
typedef struct {
    int index, visits, reply_index, reply_visits, reply_mover;
    double value, won, gained, lost, next_gained, reply_won;
} SearchRoot;

typedef struct {
    SearchNode *nodes;
    int32_t count, cap;
    uint32_t *codes;
    int *points;
    int *order;
} SearchTree;

static int search_grow(SearchTree *t, int more) {
    if (t->count + more <= t->cap) return 0;
    if (t->count + more > SEARCH_MAX_NODES) return -1;
    int32_t cap = t->cap ? t->cap : 4096;
    while (cap < t->count + more) cap *= 2;
    if (cap > SEARCH_MAX_NODES) cap = SEARCH_MAX_NODES;
    SearchNode *grown = realloc(t->nodes, (size_t)cap * sizeof *grown);
    if (!grown) return -1;
    t->nodes = grown;
    t->cap = cap;
    return 0;
}

/* Children for every legal move, best immediate points first (legal order on ties). Root
 * children keep their legal index in ``root_index``. Returns -1 where the tree is full. */
static int search_expand(SearchTree *t, int32_t at, const State *s, SearchScratch *w, int *root_index) {
    int n = search_moves(s, w, t->codes, t->points);
    if (n <= 0 || search_grow(t, n) < 0) return -1;
    for (int i = 0; i < n; i++) t->order[i] = i;
    for (int i = 1; i < n; i++) { /* insertion sort: stable, and the lists are short */
        int k = t->order[i], j = i - 1;
        while (j >= 0 && t->points[t->order[j]] < t->points[k]) { t->order[j + 1] = t->order[j]; j--; }
        t->order[j + 1] = k;
    }
    int8_t mover = (int8_t)current_player(s);
    int32_t first = t->count;
    for (int i = 0; i < n; i++) {
        SearchNode *c = &t->nodes[first + i];
        c->code = t->codes[t->order[i]];
        c->first = -1;
        c->visits = 0;
        c->value = 0.0f;
        c->won = 0.0f;
        c->n = 0;
        c->mover = mover;
        if (root_index) root_index[i] = t->order[i];
    }
    t->count += n;
    t->nodes[at].first = first;
    t->nodes[at].n = (uint16_t)n;
    return n;
}

static int32_t search_select(const SearchTree *t, int32_t at) {
    const SearchNode *node = &t->nodes[at];
    int width = SEARCH_WIDTH + (int)sqrt((double)node->visits);
    if (width > node->n) width = node->n;
    double log_n = log((double)(node->visits > 1 ? node->visits : 1)), best_ucb = -1.0;
    int32_t best = node->first;
    for (int i = 0; i < width; i++) {
        const SearchNode *c = &t->nodes[node->first + i];
        if (!c->visits) return node->first + i;
        double ucb = c->value / c->visits + SEARCH_EXPLORE * sqrt(log_n / c->visits);
        if (ucb > best_ucb) { best_ucb = ucb; best = node->first + i; }
    }
    return best;
}

static _Thread_local const SearchNode *search_ranking; /* the root's children, for search_better (per thread: searches run without the GIL) */

static int search_better(const void *a, const void *b) { /* most searched first, then the better mean */
    const SearchNode *x = &search_ranking[*(const int *)a], *y = &search_ranking[*(const int *)b];
    if (x->visits != y->visits) return x->visits < y->visits ? 1 : -1;
    double vx = x->visits ? x->value / x->visits : 0.0, vy = y->visits ? y->value / y->visits : 0.0;
    if (vx != vy) return vx < vy ? 1 : -1;
    return *(const int *)a - *(const int *)b;
}

/* A root child among the ``top`` best that rests on fewer than ``least`` visits, or -1. */
static int search_thin(const SearchTree *t, int *rank, int nroot, int top, int least) {
    for (int i = 0; i < nroot; i++) rank[i] = i;
    search_ranking = &t->nodes[t->nodes[0].first];
    qsort(rank, (size_t)nroot, sizeof *rank, search_better);
    for (int r = 0; r < top && r < nroot; r++)
        if (search_ranking[rank[r]].visits < least) return rank[r];
    return -1;
}

static double search_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Search ``root`` for ``seconds`` (or, where ``iterations`` > 0, that many iterations: results
 * that repeat), then, until the ``top`` best root moves each rest on ``least`` visits, more
 * iterations through the thin ones. Fills ``out`` (``*nout`` root moves, most searched first); returns the
 * iterations run, or -1 out of memory, -2 where no player is to move. */
static long search_run(const State *root, SearchScratch *w, double seconds, long iterations, double wander,
                       int to_end, int top, int least, SearchRoot *out, int *nout) {
    *nout = 0;
    int me = current_player(root);
    if (me < 0) return -2;
    int players = root->players, next = (me + 1) % players;
    SearchTree t = {0};
    t.codes = malloc(sizeof(uint32_t) * SEARCH_MAX_MOVES);
    t.points = malloc(sizeof(int) * SEARCH_MAX_MOVES);
    t.order = malloc(sizeof(int) * SEARCH_MAX_MOVES);
    int *root_index = malloc(sizeof(int) * SEARCH_MAX_MOVES), *rank = malloc(sizeof(int) * SEARCH_MAX_MOVES);
    double *gained = NULL, *lost = NULL, *next_gained = NULL;
    int32_t *path = malloc(sizeof(int32_t) * SEARCH_MAX_DEPTH);
    long done = -1;
    if (!t.codes || !t.points || !t.order || !root_index || !rank || !path || search_grow(&t, 1) < 0) goto out;
    t.nodes[0] = (SearchNode){0, -1, 0, 0.0f, 0, -1};
    t.count = 1;
    int nroot = search_expand(&t, 0, root, w, root_index);
    if (nroot <= 0) goto out;
    gained = calloc((size_t)nroot, sizeof(double));
    lost = calloc((size_t)nroot, sizeof(double));
    next_gained = calloc((size_t)nroot, sizeof(double));
    if (!gained || !lost || !next_gained) goto out;
    const int score0 = search_score(root, me), lost0 = search_lost(root, me);
    const double deadline = search_now() + seconds;
    State s;
    done = 0;
    int topping = 0, forced = -1;
    for (;;) {
        if (!topping && (iterations > 0 ? done >= iterations : ((done & 63) == 0 && done >= 2 && search_now() >= deadline)))
            topping = 1;
        if (topping && (forced = search_thin(&t, rank, nroot, top, least)) < 0) break;
        memcpy(&s, root, sizeof s);
        search_reseed(&s, w);
        int depth = 0;
        int32_t at = 0;
        path[depth++] = 0;
        /* Down the tree while a player is to move; a leaf visited often enough grows children. */
        while (current_player(&s) >= 0 && depth < SEARCH_MAX_DEPTH) {
            SearchNode *node = &t.nodes[at];
            if (node->first < 0) {
                if (node->visits < SEARCH_EXPAND_AT || search_expand(&t, at, &s, w, NULL) <= 0) break;
            }
            at = depth == 1 && forced >= 0 ? t.nodes[0].first + forced : search_select(&t, at);
            search_play(&s, t.nodes[at].code);
            path[depth++] = at;
        }
        while (!search_round_over(&s)) search_step(&s, w, wander);
        if (to_end)
            while (current_player(&s) != TERMINAL) search_step(&s, w, wander);
        /* The round's end judged: each player's result. */
        double result[MAXPLAYERS], won[MAXPLAYERS];
        if (current_player(&s) == TERMINAL) {
            int win[MAXPLAYERS], nw = winners_of(&s, win);
            for (int p = 0; p < players; p++) {
                int rival = -1000000;
                for (int q = 0; q < players; q++)
                    if (q != p && search_score(&s, q) > rival) rival = search_score(&s, q);
                result[p] = 1.0 / (1.0 + exp(-(search_score(&s, p) - rival) / SEARCH_MARGIN));
                won[p] = 0.0;
            }
            for (int k = 0; k < nw; k++) won[win[k]] = 1.0 / nw;
        } else {
            double v[MAXPLAYERS], spread = search_values(&s, v);
            for (int p = 0; p < players; p++) {
                double rival = -1e9;
                for (int q = 0; q < players; q++)
                    if (q != p && v[q] > rival) rival = v[q];
                won[p] = result[p] = 1.0 / (1.0 + exp(-(v[p] - rival) / spread));
            }
        }
        for (int k = 0; k < depth; k++) {
            SearchNode *n = &t.nodes[path[k]];
            n->visits++;
            if (n->mover >= 0) {
                n->value += (float)result[n->mover];
                n->won += (float)won[n->mover];
            }
        }
        done++;
    }
    /* The reasons: what each root move brings its player and the next this round, on the lines
     * the search expects (its most searched moves while the tree goes, then the greedy move), not
     * on the searching lines, whose exploring and random moves play worse than the table. */
    for (int i = 0; i < nroot; i++) {
        const SearchNode *c = &t.nodes[t.nodes[0].first + i];
        if (!c->visits) continue;
        for (int line = 0; line < SEARCH_REASON_LINES; line++) {
            memcpy(&s, root, sizeof s);
            search_reseed(&s, w);
            search_play(&s, c->code);
            const SearchNode *node = c;
            while (current_player(&s) >= 0 && node->first >= 0) {
                const SearchNode *most = NULL;
                for (int k = 0; k < node->n; k++) {
                    const SearchNode *g = &t.nodes[node->first + k];
                    if (g->visits && (!most || g->visits > most->visits)) most = g;
                }
                if (!most) break;
                search_play(&s, most->code);
                node = most;
            }
            while (!search_round_over(&s)) search_step(&s, w, 0.0);
            int lost_me = search_lost(&s, me) - lost0;
            lost[i] += lost_me;
            gained[i] += search_score(&s, me) - score0 + lost_me;
            next_gained[i] += search_score(&s, next) + search_lost(&s, next) - search_score(root, next) - search_lost(root, next);
        }
    }
    for (int i = 0; i < nroot; i++) {
        const SearchNode *c = &t.nodes[t.nodes[0].first + i];
        SearchRoot *r = &out[i];
        int v = c->visits ? c->visits : 1;
        r->index = root_index[i];
        r->visits = c->visits;
        r->value = c->value / v;
        r->won = c->won / v;
        r->gained = gained[i] / SEARCH_REASON_LINES;
        r->lost = lost[i] / SEARCH_REASON_LINES;
        r->next_gained = next_gained[i] / SEARCH_REASON_LINES;
        r->reply_index = -1;
        r->reply_visits = 0;
        r->reply_mover = -1;
        r->reply_won = 0.0;
        const SearchNode *reply = NULL;
        for (int k = 0; k < c->n; k++) {
            const SearchNode *g = &t.nodes[c->first + k];
            if (g->visits > r->reply_visits) { r->reply_visits = g->visits; reply = g; }
        }
        if (!reply) continue;
        r->reply_won = reply->won / reply->visits;
        r->reply_mover = reply->mover;
        /* The reply's legal index, in the position the root move leaves. */
        memcpy(&s, root, sizeof s);
        search_play(&s, c->code);
        int m = search_moves(&s, w, t.codes, t.points);
        for (int k = 0; k < m; k++)
            if (t.codes[k] == reply->code) { r->reply_index = k; break; }
    }
    /* Most searched first (the move UCT plays); ties by the better mean. */
    for (int i = 1; i < nroot; i++) {
        SearchRoot k = out[i];
        int j = i - 1;
        while (j >= 0 && (out[j].visits < k.visits || (out[j].visits == k.visits && out[j].value < k.value))) {
            out[j + 1] = out[j];
            j--;
        }
        out[j + 1] = k;
    }
    *nout = nroot;
out:
    free(t.nodes);
    free(t.codes);
    free(t.points);
    free(t.order);
    free(root_index);
    free(rank);
    free(gained);
    free(lost);
    free(next_gained);
    free(path);
    return done;
}

/* The Python face: search(seconds, iterations, wander, seed, to_end=False, top=0, least=0) -> (iterations, [(legal index,
 * visits, share of lines won, gained, lost, next player's gained, (the next player's most
 * searched answer: its legal index after the move or -1, the player who makes it, its visits,
 * its share of lines won), mean result)], most searched first). The GIL is released while it
 * searches. */
static PyObject *search_py(const State *state, PyObject *args) {
    double seconds = 1.0, wander = 0.25;
    long iterations = 0;
    unsigned long long seed = 0;
    int to_end = 0, top = 0, least = 0;
    if (!PyArg_ParseTuple(args, "dldK|pii", &seconds, &iterations, &wander, &seed, &to_end, &top, &least)) return NULL;
    if (top < 0 || least < 0 || least > 1000000) {
        PyErr_SetString(PyExc_ValueError, "top and least 0 or more");
        return NULL;
    }
    if (!(seconds >= 0.0 && seconds <= 3600.0) || iterations < 0 || !(wander >= 0.0 && wander <= 1.0)) {
        PyErr_SetString(PyExc_ValueError, "seconds 0 to 3600, iterations 0 or more, wander 0 to 1");
        return NULL;
    }
    /* The search's own copy of the position and scratch: the GIL is released while it runs. */
    SearchRoot *out = malloc(sizeof(SearchRoot) * SEARCH_MAX_MOVES);
    SearchScratch *w = malloc(sizeof(SearchScratch));
    State *root = malloc(sizeof(State));
    if (!out || !w || !root) { free(out); free(w); free(root); return PyErr_NoMemory(); }
    memcpy(root, state, sizeof *root);
    search_seed(w, (uint64_t)seed);
    int n = 0;
    long done;
    Py_BEGIN_ALLOW_THREADS
    done = search_run(root, w, seconds, iterations, wander, to_end, top, least, out, &n);
    Py_END_ALLOW_THREADS
    free(w);
    free(root);
    if (done == -2) { free(out); PyErr_SetString(PyExc_ValueError, "no player is to move"); return NULL; }
    if (done < 0) { free(out); return PyErr_NoMemory(); }
    PyObject *list = PyList_New(n);
    if (!list) { free(out); return NULL; }
    for (int i = 0; i < n; i++) {
        const SearchRoot *r = &out[i];
        PyObject *item = Py_BuildValue("(iidddd(iiid)d)", r->index, r->visits, r->won, r->gained, r->lost,
                                       r->next_gained, r->reply_index, r->reply_mover, r->reply_visits, r->reply_won,
                                       r->value);
        if (!item) { Py_DECREF(list); free(out); return NULL; }
        PyList_SET_ITEM(list, i, item);
    }
    free(out);
    return Py_BuildValue("(lN)", done, list);
}

