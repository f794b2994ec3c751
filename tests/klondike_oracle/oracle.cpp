// An independent thoughtful-Klondike solver for the tests (issue 43): written from the rules,
// sharing nothing with engine/. A plain depth-first search over single moves (one stock turn a
// move) with a visited set of whole positions, so it proves a deal lost by exhausting every
// position reachable from it. The only shortcuts are plainly sound:
//   - positions equal up to the order of the piles are one position (the rules do not depend on
//     where a pile stands);
//   - a pile's top ace goes home, and a pile's top two once its ace is home, as the only move
//     (such a card can hold nothing but an ace, and the card it covers is uncovered all the same);
//   - a run is moved to an empty pile only if it uncovers a card (a king already at the bottom
//     of its pile would only swap places), and only to the leftmost empty pile;
//   - with every card face up and the stock and waste empty the deal is won: the lowest card not
//     home is always a pile's top card and its foundation waits for it.
// Input on stdin (cards 0..51, suit-major S H D C, index = suit*13 + rank-1):
//   draw <1|3>  budget <positions>  found <s h d c>
//   talon <waste count> <n> <cards...>   (waste bottom->top, then the stock next-to-turn first)
//   pile <face-down count> <n> <cards...>   x7, bottom->top
// Output: "winnable <positions> <cpu s>" then the line, or "lost ..." or "unknown ...".
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

namespace {

const int PILES = 7;
const int MAXPILE = 20;  // 6 face-down cards under at most 13 face-up ones

struct State {
  uint8_t pile[PILES][MAXPILE];
  uint8_t len[PILES];
  uint8_t down[PILES];
  uint8_t talon[24];
  uint8_t tlen;
  uint8_t waste;  // talon[0..waste) is the waste (top last), talon[waste..tlen) the stock
  uint8_t found[4];
};

enum Kind : uint8_t { WASTE_HOME, WASTE_PILE, PILE_HOME, PILE_PILE, HOME_PILE };

struct Move {
  Kind kind;
  uint8_t from;  // pile, or suit for HOME_PILE; for a waste card the waste count it is played at
  uint8_t to;
  uint8_t count;  // cards moved; for a waste card the stock turns played before it
};

int suit(int c) { return c / 13; }
int rank(int c) { return c % 13 + 1; }
bool red(int c) { return suit(c) == 1 || suit(c) == 2; }

bool fits(const State& s, int card, int p) {
  if (s.len[p] == 0) return rank(card) == 13;
  int top = s.pile[p][s.len[p] - 1];
  return rank(top) == rank(card) + 1 && red(top) != red(card);
}

bool goes_home(const State& s, int card) { return s.found[suit(card)] == rank(card) - 1; }

void uncover(State& s, int p) {
  if (s.len[p] > 0 && s.down[p] == s.len[p]) s.down[p]--;
}

void apply(State& s, const Move& m) {
  switch (m.kind) {
    case WASTE_HOME:
    case WASTE_PILE: {
      s.waste = m.from;
      int card = s.talon[s.waste - 1];
      for (int i = s.waste - 1; i + 1 < s.tlen; i++) s.talon[i] = s.talon[i + 1];
      s.tlen--;
      s.waste--;
      if (m.kind == WASTE_HOME) s.found[suit(card)]++;
      else s.pile[m.to][s.len[m.to]++] = card;
      break;
    }
    case PILE_HOME:
      s.found[suit(s.pile[m.from][--s.len[m.from]])]++;
      uncover(s, m.from);
      break;
    case PILE_PILE:
      for (int i = s.len[m.from] - m.count; i < s.len[m.from]; i++) s.pile[m.to][s.len[m.to]++] = s.pile[m.from][i];
      s.len[m.from] -= m.count;
      uncover(s, m.from);
      break;
    case HOME_PILE:
      s.pile[m.to][s.len[m.to]++] = m.from * 13 + --s.found[m.from];
      break;
  }
}

// The pile's forced move home (an ace, or a two over its home ace), if any.
bool forced(const State& s, Move& m) {
  for (int p = 0; p < PILES; p++) {
    if (s.len[p] == 0) continue;
    int card = s.pile[p][s.len[p] - 1];
    if (rank(card) <= 2 && goes_home(s, card)) {
      m = {PILE_HOME, (uint8_t)p, 0, 1};
      return true;
    }
  }
  return false;
}

int first_empty(const State& s) {
  for (int p = 0; p < PILES; p++)
    if (s.len[p] == 0) return p;
  return -1;
}

void pile_moves(const State& s, std::vector<Move>& uncovering, std::vector<Move>& others) {
  int empty = first_empty(s);
  for (int a = 0; a < PILES; a++) {
    int up = s.len[a] - s.down[a];
    for (int b = 0; b < PILES; b++) {
      if (a == b || up == 0) continue;
      if (s.len[b] == 0) {
        if (b != empty || s.down[a] == 0 || rank(s.pile[a][s.down[a]]) != 13) continue;
        uncovering.push_back({PILE_PILE, (uint8_t)a, (uint8_t)b, (uint8_t)up});
        continue;
      }
      for (int n = 1; n <= up; n++) {
        if (!fits(s, s.pile[a][s.len[a] - n], b)) continue;
        Move m = {PILE_PILE, (uint8_t)a, (uint8_t)b, (uint8_t)n};
        (n == up ? uncovering : others).push_back(m);
      }
    }
  }
}

// Each waste count the stock's turns reach from the present one (the first time), with the
// turns taken: the waste cards playable after them.
int talon_reach(const State& s, int draw, uint8_t counts[], uint8_t turns[]) {
  bool seen[25] = {};
  int n = 0;
  for (int w = s.waste, t = 0; !seen[w]; t++) {
    seen[w] = true;
    if (w > 0) counts[n] = w, turns[n++] = t;
    w = w == s.tlen ? 0 : std::min<int>(s.tlen, w + draw);
  }
  return n;
}

void talon_moves(const State& s, int draw, std::vector<Move>& home, std::vector<Move>& piles) {
  uint8_t counts[25], turns[25];
  int empty = first_empty(s);
  for (int i = 0, n = talon_reach(s, draw, counts, turns); i < n; i++) {
    int card = s.talon[counts[i] - 1];
    if (goes_home(s, card)) home.push_back({WASTE_HOME, counts[i], 0, turns[i]});
    for (int p = 0; p < PILES; p++)
      if ((s.len[p] > 0 || p == empty) && fits(s, card, p)) piles.push_back({WASTE_PILE, counts[i], (uint8_t)p, turns[i]});
  }
}

// Every move (a waste card with the stock turns before it as one), the likelier useful ones
// first: the order only speeds finding a win.
std::vector<Move> moves(const State& s, int draw) {
  Move m;
  if (forced(s, m)) return {m};
  std::vector<Move> out, uncovering, others, talon_home, talon_piles;
  for (int p = 0; p < PILES; p++)
    if (s.len[p] > 0 && goes_home(s, s.pile[p][s.len[p] - 1])) out.push_back({PILE_HOME, (uint8_t)p, 0, 1});
  talon_moves(s, draw, talon_home, talon_piles);
  out.insert(out.end(), talon_home.begin(), talon_home.end());
  pile_moves(s, uncovering, others);
  auto deeper = [&](const Move& x, const Move& y) { return s.down[x.from] > s.down[y.from]; };
  std::stable_sort(uncovering.begin(), uncovering.end(), deeper);  // the most cards to turn up first
  out.insert(out.end(), uncovering.begin(), uncovering.end());
  out.insert(out.end(), talon_piles.begin(), talon_piles.end());
  out.insert(out.end(), others.begin(), others.end());
  int empty = first_empty(s);
  for (int f = 0; f < 4; f++) {
    if (s.found[f] == 0) continue;
    int card = f * 13 + s.found[f] - 1;
    for (int p = 0; p < PILES; p++)
      if ((s.len[p] > 0 || p == empty) && fits(s, card, p)) out.push_back({HOME_PILE, (uint8_t)f, (uint8_t)p, 1});
  }
  return out;
}

bool all_up(const State& s) {
  if (s.tlen > 0) return false;
  for (int p = 0; p < PILES; p++)
    if (s.down[p] > 0) return false;
  return true;
}

// -- the visited set: 128-bit keys of positions up to the piles' order, open addressing ------

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
  h *= 0xFF51AFD7ED558CCDULL;
  return h ^ (h >> 33);
}

struct Key {
  uint64_t a, b;
};

// The waste count as far as winning goes: counts the stock's turns cycle through all reach one
// another (every count when drawing one; with three, 0, 3, 6, ... and the whole stock turned).
int talon_class(const State& s, int draw) {
  bool cycling = draw == 1 || s.waste == s.tlen || s.waste % 3 == 0;
  return cycling ? 0 : s.waste;
}

Key key(const State& s, int draw) {
  uint64_t pa[PILES], pb[PILES];
  for (int p = 0; p < PILES; p++) {
    uint64_t a = 0x1234567 + s.down[p], b = 0x7654321 + s.down[p] * 31;
    for (int i = 0; i < s.len[p]; i++) {
      a = mix(a, s.pile[p][i] + 1);
      b = mix(b ^ 0xC2B2AE3D27D4EB4FULL, s.pile[p][i] + 7);
    }
    pa[p] = a;
    pb[p] = b;
  }
  int order[PILES] = {0, 1, 2, 3, 4, 5, 6};
  std::sort(order, order + PILES, [&](int x, int y) { return pa[x] < pa[y] || (pa[x] == pa[y] && pb[x] < pb[y]); });
  int w = talon_class(s, draw);
  uint64_t a = mix(w, s.tlen), b = mix(s.tlen * 977 + 5, w);
  for (int f = 0; f < 4; f++) a = mix(a, s.found[f]), b = mix(b, s.found[f] + 3);
  for (int i = 0; i < s.tlen; i++) a = mix(a, s.talon[i]), b = mix(b ^ 0x165667B19E3779F9ULL, s.talon[i]);
  for (int p : order) a = mix(a, pa[p]), b = mix(b, pb[p]);
  return {a | 1, b};  // a is never 0: 0 marks an empty slot
}

struct Visited {
  std::vector<Key> slots = std::vector<Key>(1 << 16, Key{0, 0});
  size_t count = 0;

  bool insert(Key k) {  // false if already there
    if (2 * (count + 1) > slots.size()) grow();
    size_t mask = slots.size() - 1;
    for (size_t i = k.a & mask;; i = (i + 1) & mask) {
      if (slots[i].a == 0) {
        slots[i] = k;
        count++;
        return true;
      }
      if (slots[i].a == k.a && slots[i].b == k.b) return false;
    }
  }

  void grow() {
    std::vector<Key> old(slots.size() * 2, Key{0, 0});
    old.swap(slots);
    count = 0;
    for (const Key& k : old)
      if (k.a != 0) insert(k);
  }
};

// -- the search ------------------------------------------------------------------------------

struct Frame {
  State state;
  std::vector<Move> moves;
  size_t next;
  Move via;
};

std::string notation(const Move& m) {
  const char* suits = "shdc";
  std::string turns;
  if (m.kind == WASTE_HOME || m.kind == WASTE_PILE)
    for (int i = 0; i < m.count; i++) turns += "s ";
  switch (m.kind) {
    case WASTE_HOME: return turns + "wh";
    case WASTE_PILE: return turns + "w" + std::to_string(m.to + 1);
    case PILE_HOME: return std::to_string(m.from + 1) + "h";
    case PILE_PILE: return std::to_string(m.from + 1) + std::to_string(m.to + 1);
    case HOME_PILE: return std::string("h") + suits[m.from] + std::to_string(m.to + 1);
  }
  return "?";
}

// The moves home that finish a deal with every card face up and no stock or waste.
void finish(State s, std::vector<Move>& line) {
  for (bool moved = true; moved;) {
    moved = false;
    for (int p = 0; p < PILES; p++) {
      if (s.len[p] > 0 && goes_home(s, s.pile[p][s.len[p] - 1])) {
        Move m = {PILE_HOME, (uint8_t)p, 0, 1};
        apply(s, m);
        line.push_back(m);
        moved = true;
      }
    }
  }
}

// 1 won (line filled), 0 lost, -1 budget spent.
int search(const State& start, int draw, size_t budget, Visited& seen, std::vector<Move>& line) {
  std::vector<Frame> stack;
  seen.insert(key(start, draw));
  stack.push_back({start, moves(start, draw), 0, {}});
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (all_up(top.state)) {
      for (size_t i = 1; i < stack.size(); i++) line.push_back(stack[i].via);
      finish(top.state, line);
      return 1;
    }
    if (top.next == top.moves.size()) {
      stack.pop_back();
      continue;
    }
    Move m = top.moves[top.next++];
    State next = top.state;
    apply(next, m);
    if (!seen.insert(key(next, draw))) continue;
    if (seen.count > budget) return -1;
    stack.push_back({next, moves(next, draw), 0, m});
  }
  return 0;
}

bool read_cards(uint8_t* out, int n) {
  for (int i = 0; i < n; i++) {
    int c;
    if (scanf("%d", &c) != 1 || c < 0 || c > 51) return false;
    out[i] = c;
  }
  return true;
}

bool read_state(State& s, int& draw, size_t& budget) {
  int n, w, f[4];
  if (scanf(" draw %d budget %zu found %d %d %d %d", &draw, &budget, &f[0], &f[1], &f[2], &f[3]) != 6) return false;
  for (int i = 0; i < 4; i++) s.found[i] = f[i];
  if (scanf(" talon %d %d", &w, &n) != 2 || n > 24 || w > n) return false;
  s.waste = w;
  s.tlen = n;
  if (!read_cards(s.talon, n)) return false;
  for (int p = 0; p < PILES; p++) {
    int d;
    if (scanf(" pile %d %d", &d, &n) != 2 || n > MAXPILE || d > n || (n > 0 && d == n)) return false;
    s.down[p] = d;
    s.len[p] = n;
    if (!read_cards(s.pile[p], n)) return false;
  }
  return true;
}

}  // namespace

int main() {
  State s{};
  int draw;
  size_t budget;
  if (!read_state(s, draw, budget)) {
    fprintf(stderr, "unreadable position\n");
    return 2;
  }
  Visited seen;
  std::vector<Move> line;
  int result = search(s, draw, budget, seen, line);
  double cpu = (double)clock() / CLOCKS_PER_SEC;
  const char* verdict = result == 1 ? "winnable" : result == 0 ? "lost" : "unknown";
  printf("%s %zu %.3f\n", verdict, seen.count, cpu);
  for (size_t i = 0; i < line.size(); i++) printf("%s%s", i ? " " : "", notation(line[i]).c_str());
  printf("\n");
  return 0;
}
