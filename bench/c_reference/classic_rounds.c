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
 * Usage: classic_rounds ROUNDS SEED  -> one JSON line: rounds, seconds (CPU time of the rounds),
 * mean_turns, stalemates, truncated, wins per seat relative to the dealer. The statistics let the
 * bench check that the two programs play the same game (tests/test_bench.py compares them).
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

typedef struct {
    uint8_t draw[DECK], discard[DECK], hand[PLAYERS][DECK];
    int n_draw, n_discard, n_hand[PLAYERS];
    int top, colour, direction;
} Table;

static void shuffle(uint8_t *a, int n) {
    for (int i = n - 1; i > 0; i--) { int j = below(i + 1); uint8_t t = a[i]; a[i] = a[j]; a[j] = t; }
}

/* One card from the draw pile into p's hand (reshuffling the discard pile under the top card when the
 * pile is empty); 0 when nothing can be drawn. */
static int draw_one(Table *t, int p) {
    if (t->n_draw == 0) {
        if (t->n_discard <= 1) return 0;
        for (int i = 0; i < t->n_discard - 1; i++) t->draw[i] = t->discard[i];
        t->n_draw = t->n_discard - 1;
        t->discard[0] = t->discard[t->n_discard - 1];
        t->n_discard = 1;
        shuffle(t->draw, t->n_draw);
    }
    t->hand[p][t->n_hand[p]++] = t->draw[--t->n_draw];
    return 1;
}

static int draw_n(Table *t, int p, int n) {
    int drawn = 0;
    while (drawn < n && draw_one(t, p)) drawn++;
    return drawn;
}

static inline int matches(const Table *t, int card) {
    int top = t->top;
    if (colour_of[card] == NONE || colour_of[card] == t->colour) return 1;
    if (colour_of[top] == NONE) return 0;
    if (kind_of[card] == NUMBER) return kind_of[top] == NUMBER && number_of[card] == number_of[top];
    return kind_of[card] == kind_of[top];
}

/* Positions of p's legal cards in `legal`; their count. A WD4 is legal only without a card of the colour
 * in play. */
static int legal_cards(const Table *t, int p, int *legal) {
    int n = 0, wd4 = 0, holds_colour = 0;
    int wd4_at[4];
    for (int i = 0; i < t->n_hand[p]; i++) {
        int card = t->hand[p][i];
        if (kind_of[card] == WD4) { wd4_at[wd4++] = i; continue; }
        if (colour_of[card] == t->colour) holds_colour = 1;
        if (matches(t, card)) legal[n++] = i;
    }
    if (!holds_colour)
        for (int k = 0; k < wd4; k++) legal[n++] = wd4_at[k];
    return n;
}

static inline int next_seat(const Table *t, int p) { return (p + t->direction + PLAYERS) % PLAYERS; }

typedef struct { int winner, dealer, turns, points, stalemate, truncated; } Round;

static void play_round(Table *t, Round *r) {
    uint8_t deck[DECK];
    for (int i = 0; i < DECK; i++) deck[i] = (uint8_t)i;
    shuffle(deck, DECK);
    for (int i = 0; i < DECK; i++) t->draw[i] = deck[DECK - 1 - i];  /* the top of the pile is draw[n-1] */
    t->n_draw = DECK; t->n_discard = 0; t->direction = 1;
    int dealer = below(PLAYERS);
    for (int p = 0; p < PLAYERS; p++) t->n_hand[p] = 0;
    for (int k = 0; k < HAND_SIZE * PLAYERS; k++) {
        int p = (dealer + 1 + k) % PLAYERS;
        t->hand[p][t->n_hand[p]++] = t->draw[--t->n_draw];
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

    int legal[DECK], idle = 0;
    r->dealer = dealer; r->winner = -1; r->turns = 0; r->points = 0; r->stalemate = 0; r->truncated = 0;
    for (;;) {
        if (r->turns == MAX_TURNS) { r->truncated = 1; return; }
        r->turns++;
        int p = current, n_legal = legal_cards(t, p, legal), at = -1, drew = 0;
        if (n_legal) at = legal[below(n_legal)];
        else if ((drew = draw_one(t, p))) {
            int drawn = t->n_hand[p] - 1, card = t->hand[p][drawn];
            if (kind_of[card] == WD4) {
                int holds_colour = 0;
                for (int i = 0; i < drawn; i++) holds_colour |= colour_of[t->hand[p][i]] == t->colour;
                if (!holds_colour) at = drawn;
            } else if (matches(t, card)) at = drawn;
        }
        if (at < 0) {  /* no play: a turn without progress unless a card was drawn */
            idle = drew ? 0 : idle + 1;
            if (idle == PLAYERS) { r->stalemate = 1; return; }
            current = next_seat(t, p);
            continue;
        }
        idle = 0;
        int card = t->hand[p][at];
        t->hand[p][at] = t->hand[p][--t->n_hand[p]];
        t->discard[t->n_discard++] = (uint8_t)card; t->top = card;
        t->colour = colour_of[card] == NONE ? (int)below(4) : colour_of[card];
        int victim = next_seat(t, p);
        if (t->n_hand[p] == 0) {  /* won; final-card effects, then the winner's points */
            if (kind_of[card] == DRAW_TWO) draw_n(t, victim, 2);
            else if (kind_of[card] == WD4) draw_n(t, victim, 4);
            r->winner = p;
            for (int q = 0; q < PLAYERS; q++)
                for (int i = 0; i < t->n_hand[q]; i++) r->points += points_of[t->hand[q][i]];
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
