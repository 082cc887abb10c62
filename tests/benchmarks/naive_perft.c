/* A plain-C perft of Fruit Rage: the yardstick the core's Board.perft is timed against
 * (tests/benchmarks/test_bench_perft_vs_c.py). Deliberately straightforward: a char per
 * cell, a stack flood fill per group, every move applied to a copy of the board.
 *
 * stdin:  "n depth" on the first line, then n rows of digits and '*' (top row first).
 * stdout: "leaves cpu_seconds", the CPU time of the perft alone (not of reading input).
 * Counts follow agent/rules.py perft: move sequences of exactly the given length, so a box
 * emptied sooner adds none. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#define MAX_N 26
#define WIDTH (MAX_N + 2)             /* a border of WALL cells: no bounds checks */
#define CELLS (WIDTH * WIDTH)
#define EMPTY '*'
#define WALL '#'

typedef struct {
    int n;
    int fruit;
    char cell[CELLS]; /* (row + 1) * WIDTH + col + 1, row 0 at the top */
} Board;

/* Every group of the board: its cells, listed group after group. */
typedef struct {
    int count;
    int start[MAX_N * MAX_N + 1]; /* group g's cells are cells[start[g] .. start[g + 1]) */
    int cells[MAX_N * MAX_N];
} Groups;

static const int STEP[4] = {-WIDTH, WIDTH, -1, 1};

static int flood(const Board *b, char *visited, int at, int *out) {
    int stack[MAX_N * MAX_N];
    int top = 0, size = 0;
    char fruit = b->cell[at];
    visited[at] = 1;
    stack[top++] = at;
    while (top) {
        at = stack[--top];
        out[size++] = at;
        for (int k = 0; k < 4; k++) {
            int next = at + STEP[k];
            if (b->cell[next] == fruit && !visited[next]) {
                visited[next] = 1;
                stack[top++] = next;
            }
        }
    }
    return size;
}

static void find_groups(const Board *b, Groups *g) {
    char visited[CELLS];
    int used = 0;
    memset(visited, 0, sizeof visited);
    g->count = 0;
    for (int r = 1; r <= b->n; r++)
        for (int at = r * WIDTH + 1; at <= r * WIDTH + b->n; at++)
            if (b->cell[at] != EMPTY && !visited[at]) {
                g->start[g->count++] = used;
                used += flood(b, visited, at, &g->cells[used]);
            }
    g->start[g->count] = used;
}

static void play(Board *child, const Board *b, const int *cells, int size) {
    int lo = WIDTH, hi = 0;
    *child = *b;
    for (int i = 0; i < size; i++) {
        int c = cells[i] % WIDTH;
        child->cell[cells[i]] = EMPTY;
        if (c < lo) lo = c;
        if (c > hi) hi = c;
    }
    for (int c = lo; c <= hi; c++) { /* gravity: fruit falls to the bottom of its column */
        int to = b->n * WIDTH + c;
        for (int at = to; at > c; at -= WIDTH)
            if (child->cell[at] != EMPTY) {
                char fruit = child->cell[at];
                child->cell[at] = EMPTY;
                child->cell[to] = fruit;
                to -= WIDTH;
            }
    }
    child->fruit = b->fruit - size;
}

static long long perft(const Board *b, int depth) {
    Groups groups;
    Board child;
    long long leaves = 0;
    if (depth == 0) return 1;
    find_groups(b, &groups);
    if (depth == 1) return groups.count;
    for (int g = 0; g < groups.count; g++) {
        play(&child, b, &groups.cells[groups.start[g]], groups.start[g + 1] - groups.start[g]);
        leaves += perft(&child, depth - 1);
    }
    return leaves;
}

static double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void) {
    Board b;
    int depth;
    char row[64];
    if (scanf("%d %d", &b.n, &depth) != 2 || b.n < 1 || b.n > MAX_N || depth < 0) {
        fprintf(stderr, "naive_perft: expected 'n depth' with 1 <= n <= %d, depth >= 0\n", MAX_N);
        return 2;
    }
    b.fruit = 0;
    memset(b.cell, WALL, sizeof b.cell);
    for (int r = 0; r < b.n; r++) {
        if (scanf("%63s", row) != 1 || (int)strlen(row) != b.n) {
            fprintf(stderr, "naive_perft: row %d is not %d cells long\n", r + 1, b.n);
            return 2;
        }
        for (int c = 0; c < b.n; c++) {
            if (row[c] != EMPTY && (row[c] < '0' || row[c] > '9')) {
                fprintf(stderr, "naive_perft: row %d has a bad cell '%c'\n", r + 1, row[c]);
                return 2;
            }
            b.cell[(r + 1) * WIDTH + c + 1] = row[c];
            b.fruit += row[c] != EMPTY;
        }
    }
    double start = cpu_seconds();
    long long leaves = perft(&b, depth);
    printf("%lld %.6f\n", leaves, cpu_seconds() - start);
    return 0;
}
