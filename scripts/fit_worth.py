#!/usr/bin/env python3
"""Fits the weights of a game's search estimate (Game::expected_material) by least squares.

Reads the positions `mancala-positions` (cli/fit) prints and prints the weights in the form the
game's source keeps them. Two games have an estimate:

- cups (engine/games/cups.cpp): each seat's final pot against the position seen from that seat:
  its pot, reserve and cups, the other seat's, and whether it is to move. A cup at distance d from
  its pot is described by its beans up to d, whether it holds exactly d (it can be played now) and
  its beans beyond d (it is blocked).
- duovallis (engine/games/duovallis.cpp): the game's outcome for a seat (1 a win, 1/2 a draw)
  against the difference between the seats in material (3 a stone of one's colour, 1 a carried
  stone), stones of one's colour in the neutral holes, playable holes in each row, and whether the
  seat is to move; printed in material's units (each weight over the material's).

  cmake --build build --target mancala-positions
  build/cli/mancala-positions cups 8000 '{}' 1 > /tmp/cups.jsonl
  scripts/fit_worth.py cups /tmp/cups.jsonl
  build/cli/mancala-positions duovallis 6000 '{}' 1 > /tmp/duovallis.jsonl
  scripts/fit_worth.py duovallis /tmp/duovallis.jsonl
"""
import json
import random
import sys


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
        a[i][i] += 1e-3  # a feature that never occurs would leave the system singular
    m = [a[i] + [b[i]] for i in range(k)]
    for c in range(k):
        pivot = max(range(c, k), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(k):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][k] / m[i][i] for i in range(k)]


# --- cups -------------------------------------------------------------------------------------

def cups_side(position, seat, cups):
    base = seat * (cups + 2)  # cups 1..N, pot, reserve
    beans, pot, reserve = position[base:base + cups], position[base + cups], position[base + cups + 1]
    features = [pot, reserve]
    for i, count in enumerate(beans):  # cup i + 1 lies at distance cups - i from the pot
        distance = cups - i
        features += [min(count, distance), 1 if count == distance else 0, max(count - distance, 0)]
    return features


def fit_cups(records):
    cups = len(records[0]["position"]) // 2 - 2
    xs, ys = [], []
    for r in records:
        for seat in (0, 1):
            p = r["position"]
            xs.append([1, 1 if r["to_move"] == seat else 0] + cups_side(p, seat, cups) + cups_side(p, 1 - seat, cups))
            ys.append(r["material"][seat])
    w = least_squares(xs, ys)
    per_side = 2 + 3 * cups
    own, theirs = w[2:2 + per_side], w[2 + per_side:]
    print(f"kPot = {own[0]:.3f}, kTheirPot = {theirs[0]:.3f}, kReserve = {own[1]:.3f}, "
          f"kTheirReserve = {theirs[1]:.3f}, kToMove = {w[1]:.3f}")
    for name, side in (("kOwnCup", own), ("kTheirCup", theirs)):
        by_distance = [side[2 + 3 * (cups - d):5 + 3 * (cups - d)] for d in range(1, cups + 1)]
        print(name + "{{" + ", ".join("{%.3f, %.3f, %.3f}" % tuple(e) for e in by_distance) + "}}")


# --- duovallis --------------------------------------------------------------------------------

def duovallis_owner(hole):
    if hole <= 5 or 13 <= hole <= 16:
        return 0
    if hole >= 18 or 7 <= hole <= 10:
        return 1
    return None  # neutral: 6, 11, 12, 17


def duovallis_side(position, seat):
    stones = [position[:24], position[24:48]]
    mine, theirs = stones[seat], stones[1 - seat]
    material = 3 * sum(mine) + position[48 + seat]
    in_neutral = sum(mine[h] for h in range(24) if duovallis_owner(h) is None)
    playable = [h for h in range(24) if duovallis_owner(h) == seat
                and mine[h] + theirs[h] >= 2 and 2 * mine[h] >= mine[h] + theirs[h]]
    back = sum(1 for h in playable if h <= 5 or h >= 18)
    return [material, in_neutral, back, len(playable) - back]


def fit_duovallis(records):
    xs, ys = [], []
    for r in records:
        for seat in (0, 1):
            mine, theirs = duovallis_side(r["position"], seat), duovallis_side(r["position"], 1 - seat)
            xs.append([1, 1 if r["to_move"] == seat else -1] + [a - b for a, b in zip(mine, theirs)])
            ys.append(r["outcome"][seat] - 0.5)
    w = least_squares(xs, ys)
    per_material = lambda v: v / w[2]
    print(f"kToMove = {per_material(w[1]):.2f}, kNeutralStone = {per_material(w[3]):.2f}, "
          f"kPlayableBack = {per_material(w[4]):.2f}, kPlayableFront = {per_material(w[5]):.2f} "
          f"(material's weight {w[2]:.4f})")


def main():
    game, path = sys.argv[1], sys.argv[2]
    records = [json.loads(line) for line in open(path)]
    random.Random(1).shuffle(records)
    records = records[:int(sys.argv[3]) if len(sys.argv) > 3 else 40000]
    {"cups": fit_cups, "duovallis": fit_duovallis}[game](records)


if __name__ == "__main__":
    main()
