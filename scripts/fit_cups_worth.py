#!/usr/bin/env python3
"""Fits the weights of Cups::expected_material (engine/games/cups.cpp) by least squares.

Each position of `mancala-cups-positions` (cli/fit) gives two rows, one per seat: the seat's final
pot against the position seen from that seat (its pot, reserve and cups, the other seat's, and
whether it is to move). A cup at distance d from its pot is described by its beans up to d, whether
it holds exactly d (it can be played now) and its beans beyond d (it is blocked). Prints the
weights in the form cups.cpp keeps them.

  cmake --build build --target mancala-cups-positions
  build/cli/mancala-cups-positions 8000 4 1 > /tmp/positions.txt
  scripts/fit_cups_worth.py /tmp/positions.txt
"""
import random
import sys


def seat_features(row, seat, cups):
    base = 1 + seat * (2 + cups)
    pot, reserve, beans = row[base], row[base + 1], row[base + 2:base + 2 + cups]
    features = [pot, reserve]
    for i, count in enumerate(beans):  # own numbering: cup i + 1 lies at distance cups - i
        distance = cups - i
        features += [min(count, distance), 1 if count == distance else 0, max(count - distance, 0)]
    return features


def features(row, seat, cups):
    return [1, 1 if row[0] == seat else 0] + seat_features(row, seat, cups) + seat_features(row, 1 - seat, cups)


def least_squares(xs, ys):
    k = len(xs[0])
    a = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    for x, y in zip(xs, ys):
        for i, xi in enumerate(x):
            if xi:
                b[i] += xi * y
                row = a[i]
                for j, xj in enumerate(x):
                    row[j] += xi * xj
    for i in range(k):
        a[i][i] += 1e-3  # a cup that is never exact would leave the system singular
    m = [a[i] + [b[i]] for i in range(k)]
    for c in range(k):
        pivot = max(range(c, k), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(k):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][k] / m[i][i] for i in range(k)]


def main():
    rows = [list(map(int, line.split())) for line in open(sys.argv[1])]
    cups = (len(rows[0]) - 3) // 2 - 2
    random.Random(1).shuffle(rows)
    rows = rows[:int(sys.argv[2]) if len(sys.argv) > 2 else 40000]
    xs, ys = [], []
    for row in rows:
        for seat in (0, 1):
            xs.append(features(row, seat, cups))
            ys.append(row[-2 + seat])
    w = least_squares(xs, ys)
    per_side = 2 + 3 * cups
    own, theirs = w[2:2 + per_side], w[2 + per_side:]
    print(f"to move {w[1]:.3f}; pot {own[0]:.3f} / {theirs[0]:.3f}; reserve {own[1]:.3f} / {theirs[1]:.3f}")
    for label, side in (("kOwnCup", own), ("kTheirCup", theirs)):
        # by distance 1..cups: the cup nearest the pot first
        entries = [side[2 + 3 * (cups - d):5 + 3 * (cups - d)] for d in range(1, cups + 1)]
        print(label + " {" + ", ".join("{%.3f, %.3f, %.3f}" % tuple(e) for e in entries) + "}")


if __name__ == "__main__":
    main()
