/* A tight C reference for `make bench`: classic UNO, 4 players, every seat the `random` policy, single
 * rounds, the deck without blank cards (108 cards) -- the same game unosim's kernel plays for
 * `simulate("classic", players=4, rules={"n_blank": 0, "match_mode": "single_round"})`.
 *
 * Rules (docs/rules.md section numbers): deck 2.1.1 without blanks; uniform random dealer D, deal 7
 * cards one at a time from D+1 (1.3); first card 1.9 (WD4 returned at a random position, Wild: F names
 * the colour, Draw Two: F draws 2 and is skipped, Skip: F skipped, Reverse: dealer starts, d = -1);
 * legal plays 1.4 and WD4 legality 1.8; a turn 1.5 with the random policy 5 (a uniform legal card
 * instance, never a voluntary draw, never a bluff or a challenge, the drawn card played when legal,
 * colours named uniformly, UNO always called so the checkpoint never changes anything); effects 1.7;
 * drawing and reshuffles 1.6 (a failed draw ends the obligation); stalemate after n turns without a
 * card moving and the 10,000-turn cap (1.6); final-card effects and the winner's points 1.11, 1.12.
 *
 * Tight: a hand is a 108-bit set of card ids (each of the 108 cards is a distinct instance), the legal
 * cards are the hand ANDed with a precomputed mask per (top card, colour in play), and a uniform legal
 * instance is the k-th set bit for a uniform k.
 *
 * Usage: classic_rounds ROUNDS SEED  -> one JSON line: rounds, seconds (CPU time of the rounds),
 * mean_turns, stalemates, truncated, wins per seat relative to the dealer. The statistics let the
 * bench check that the two programs play the same game (tests/project/test_bench.py compares them).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { PLAYERS = 4, HAND_SIZE = 7, DECK = 108, MAX_TURNS = 10000 };
enum { NUMBER, SKIP, REVERSE, DRAW_TWO, WILD, WD4 };
enum { NONE = 4 };

static uint8_t kind_of[DECK], colour_of[DECK], number_of[DECK], points_of[DECK];

/* xoshiro256** with splitmix64 seeding; bounded integers by Lemire's multiply-shift with rejection. */
static uint64_t rng_s[4];
static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static uint64_t next_u64(void) {
    uint64_t result = rotl(rng_s[1] * 5, 7) * 9, t = rng_s[1] << 17;
    rng_s[2] ^= rng_s[0]; rng_s[3] ^= rng_s[1]; rng_s[1] ^= rng_s[2]; rng_s[0] ^= rng_s[3];
    rng_s[2] ^= t; rng_s[3] = rotl(rng_s[3], 45);
    return result;
}
static void seed_rng(uint64_t seed) {
    for (int i = 0; i < 4; i++) {
        uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL; z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        rng_s[i] = z ^ (z >> 31);
    }
}
static inline uint32_t below(uint32_t n) {  /* uniform in [0, n) */
    uint64_t m = (uint64_t)(uint32_t)next_u64() * n;
    if ((uint32_t)m < n) {
        uint32_t threshold = -n % n;
        while ((uint32_t)m < threshold) m = (uint64_t)(uint32_t)next_u64() * n;
    }
    return (uint32_t)(m >> 32);
}

static void build_deck(void) {
    int id = 0;
    for (int c = 0; c < 4; c++) {
        kind_of[id] = NUMBER; colour_of[id] = c; number_of[id] = 0; points_of[id++] = 0;
        for (int n = 1; n <= 9; n++)
            for (int k = 0; k < 2; k++) { kind_of[id] = NUMBER; colour_of[id] = c; number_of[id] = n; points_of[id++] = n; }
        for (int kind = SKIP; kind <= DRAW_TWO; kind++)
            for (int k = 0; k < 2; k++) { kind_of[id] = kind; colour_of[id] = c; number_of[id] = 0; points_of[id++] = 20; }
    }
    for (int kind = WILD; kind <= WD4; kind++)
        for (int k = 0; k < 4; k++) { kind_of[id] = kind; colour_of[id] = NONE; number_of[id] = 0; points_of[id++] = 50; }
}

typedef struct { uint64_t lo, hi; } Set;  /* card ids 0..63 in lo, 64..107 in hi */

static inline Set set_and(Set a, Set b) { return (Set){a.lo & b.lo, a.hi & b.hi}; }
static inline int set_any(Set a) { return (a.lo | a.hi) != 0; }
static inline int set_count(Set a) { return __builtin_popcountll(a.lo) + __builtin_popcountll(a.hi); }
static inline int set_has(Set a, int id) { return id < 64 ? (int)(a.lo >> id & 1) : (int)(a.hi >> (id - 64) & 1); }
static inline void set_add(Set *a, int id) { if (id < 64) a->lo |= 1ULL << id; else a->hi |= 1ULL << (id - 64); }
static inline void set_remove(Set *a, int id) { if (id < 64) a->lo &= ~(1ULL << id); else a->hi &= ~(1ULL << (id - 64)); }
static inline int set_nth(Set a, int k) {  /* the id of the k-th (0-based) member */
    int in_lo = __builtin_popcountll(a.lo), base = 0;
    uint64_t x = a.lo;
    if (k >= in_lo) { x = a.hi; base = 64; k -= in_lo; }
    while (k--) x &= x - 1;
    return base + __builtin_ctzll(x);
}
static inline int set_points(Set a) {
    int points = 0;
    for (uint64_t x = a.lo; x; x &= x - 1) points += points_of[__builtin_ctzll(x)];
    for (uint64_t x = a.hi; x; x &= x - 1) points += points_of[64 + __builtin_ctzll(x)];
    return points;
}

static Set matching[DECK][4], of_colour[4], wd4s;

static int card_matches(int card, int top, int colour) {  /* 1.4, WD4 legality apart */
    if (colour_of[card] == NONE || colour_of[card] == colour) return 1;
    if (colour_of[top] == NONE) return 0;
    if (kind_of[card] == NUMBER) return kind_of[top] == NUMBER && number_of[card] == number_of[top];
    return kind_of[card] == kind_of[top];
}

static void build_masks(void) {
    for (int top = 0; top < DECK; top++)
        for (int colour = 0; colour < 4; colour++)
            for (int card = 0; card < DECK; card++)
                if (card_matches(card, top, colour)) set_add(&matching[top][colour], card);
    for (int card = 0; card < DECK; card++) {
        if (colour_of[card] != NONE) set_add(&of_colour[colour_of[card]], card);
        if (kind_of[card] == WD4) set_add(&wd4s, card);
    }
}

typedef struct {
    uint8_t draw[DECK], discard[DECK];
    Set hand[PLAYERS];
    int n_draw, n_discard, n_hand[PLAYERS];
    int top, colour, direction;
} Table;

static void shuffle(uint8_t *a, int n) {
    for (int i = n - 1; i > 0; i--) { int j = below(i + 1); uint8_t t = a[i]; a[i] = a[j]; a[j] = t; }
}

/* One card from the draw pile into p's hand (reshuffling the discard pile under the top card when the
 * pile is empty); the card's id, or -1 when nothing can be drawn. */
static int draw_one(Table *t, int p) {
    if (t->n_draw == 0) {
        if (t->n_discard <= 1) return -1;
        for (int i = 0; i < t->n_discard - 1; i++) t->draw[i] = t->discard[i];
        t->n_draw = t->n_discard - 1;
        t->discard[0] = t->discard[t->n_discard - 1];
        t->n_discard = 1;
        shuffle(t->draw, t->n_draw);
    }
    int card = t->draw[--t->n_draw];
    set_add(&t->hand[p], card);
    t->n_hand[p]++;
    return card;
}

static void draw_n(Table *t, int p, int n) {
    while (n-- > 0 && draw_one(t, p) >= 0) {}
}

/* p's legal cards: matching ones, a WD4 only without a card of the colour in play (1.8). */
static inline Set legal_cards(const Table *t, Set hand) {
    Set legal = set_and(hand, matching[t->top][t->colour]);
    if (set_any(set_and(hand, of_colour[t->colour]))) { legal.lo &= ~wd4s.lo; legal.hi &= ~wd4s.hi; }
    return legal;
}

static inline int next_seat(const Table *t, int p) { return (p + t->direction + PLAYERS) % PLAYERS; }

typedef struct { int winner, dealer, turns, points, stalemate, truncated; } Round;

static void play_round(Table *t, Round *r) {
    for (int i = 0; i < DECK; i++) t->draw[i] = (uint8_t)i;
    shuffle(t->draw, DECK);  /* the top of the pile is draw[n_draw - 1] */
    t->n_draw = DECK; t->n_discard = 0; t->direction = 1;
    int dealer = below(PLAYERS);
    for (int p = 0; p < PLAYERS; p++) { t->hand[p] = (Set){0, 0}; t->n_hand[p] = 0; }
    for (int k = 0; k < HAND_SIZE * PLAYERS; k++) {
        int p = (dealer + 1 + k) % PLAYERS;
        set_add(&t->hand[p], t->draw[--t->n_draw]);
        t->n_hand[p]++;
    }
    int current = (dealer + 1) % PLAYERS, first;
    for (;;) {  /* first card */
        first = t->draw[--t->n_draw];
        if (kind_of[first] != WD4) break;
        int at = below(t->n_draw + 1);
        for (int i = t->n_draw; i > at; i--) t->draw[i] = t->draw[i - 1];
        t->draw[at] = (uint8_t)first;
        t->n_draw++;
    }
    t->discard[t->n_discard++] = (uint8_t)first; t->top = first;
    t->colour = colour_of[first] == NONE ? (int)below(4) : colour_of[first];
    if (kind_of[first] == DRAW_TWO) { draw_n(t, current, 2); current = next_seat(t, current); }
    else if (kind_of[first] == SKIP) current = next_seat(t, current);
    else if (kind_of[first] == REVERSE) { t->direction = -1; current = dealer; }

    int idle = 0;
    r->dealer = dealer; r->winner = -1; r->turns = 0; r->points = 0; r->stalemate = 0; r->truncated = 0;
    for (;;) {
        if (r->turns == MAX_TURNS) { r->truncated = 1; return; }
        r->turns++;
        int p = current, card = -1, drew = 0;
        Set legal = legal_cards(t, t->hand[p]);
        int n_legal = set_count(legal);
        if (n_legal) card = set_nth(legal, below(n_legal));
        else {
            Set before = t->hand[p];
            int drawn = draw_one(t, p);
            drew = drawn >= 0;
            if (drew && set_has(matching[t->top][t->colour], drawn)
                && !(kind_of[drawn] == WD4 && set_any(set_and(before, of_colour[t->colour])))) card = drawn;
        }
        if (card < 0) {  /* no play: a turn without progress unless a card was drawn */
            idle = drew ? 0 : idle + 1;
            if (idle == PLAYERS) { r->stalemate = 1; return; }
            current = next_seat(t, p);
            continue;
        }
        idle = 0;
        set_remove(&t->hand[p], card);
        t->n_hand[p]--;
        t->discard[t->n_discard++] = (uint8_t)card; t->top = card;
        t->colour = colour_of[card] == NONE ? (int)below(4) : colour_of[card];
        int victim = next_seat(t, p);
        if (t->n_hand[p] == 0) {  /* won; final-card effects, then the winner's points */
            if (kind_of[card] == DRAW_TWO) draw_n(t, victim, 2);
            else if (kind_of[card] == WD4) draw_n(t, victim, 4);
            r->winner = p;
            for (int q = 0; q < PLAYERS; q++) r->points += set_points(t->hand[q]);
            return;
        }
        switch (kind_of[card]) {
        case SKIP: current = next_seat(t, victim); break;
        case REVERSE: t->direction = -t->direction; current = next_seat(t, p); break;
        case DRAW_TWO: draw_n(t, victim, 2); current = next_seat(t, victim); break;
        case WD4: draw_n(t, victim, 4); current = next_seat(t, victim); break;
        default: current = victim;
        }
    }
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: %s ROUNDS SEED\n", argv[0]); return 2; }
    long rounds = atol(argv[1]);
    seed_rng(strtoull(argv[2], NULL, 10));
    build_deck();
    build_masks();
    static Table table;
    Round r;
    long turns = 0, stalemates = 0, truncated = 0, points = 0, wins_rel[PLAYERS] = {0};
    clock_t start = clock();
    for (long k = 0; k < rounds; k++) {
        play_round(&table, &r);
        turns += r.turns; stalemates += r.stalemate; truncated += r.truncated; points += r.points;
        if (r.winner >= 0) wins_rel[(r.winner - r.dealer + PLAYERS) % PLAYERS]++;
    }
    double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
    printf("{\"rounds\": %ld, \"seconds\": %.6f, \"mean_turns\": %.6f, \"mean_points\": %.6f, "
           "\"stalemates\": %ld, \"truncated\": %ld, \"wins_by_rel_dealer\": [%ld, %ld, %ld, %ld]}\n",
           rounds, seconds, (double)turns / rounds, (double)points / rounds, stalemates, truncated,
           wins_rel[0], wins_rel[1], wins_rel[2], wins_rel[3]);
    return 0;
}
