"""A demo game for the HTML replay's tests and the README's screenshot, built in code.

A four-player Houou East-South game that ends in its first hand: five go-arounds with
tsumogiri, S3 chi-ing S2's 3s, the dealer S0 pon-ing S1's haku, S2's riichi (a stick on the
table), and S1's chun into the dealer's daisangen (48,000 and the riichi stick), which busts S1.
Every tile is a different copy (``tests/scenario.py`` hands them out); the log has no wall seed,
so the wall itself is not checked; the engine verifies everything else (``test_html_page``).

    python -m tests.demo_game > demo.xml && tenhou-tools replay demo.xml --html demo.html
"""

from __future__ import annotations

import sys
from urllib.parse import quote

from .scenario import Scenario

NAMES = ("Akira", "Bea", "Chen", "Dana")


def demo_hand() -> bytes:
    b = Scenario(hands=[
        "123m99p55666z77z8s",    # S0, the dealer: three dragons, one of them already a set
        "458m2678p13s2457z",     # S1: one haku, one chun
        "234567m345p67s99s",     # S2: tenpai from the start (5s-8s)
        "19m2369p45s89s136z",    # S3
    ], scores=[250, 250, 250, 250], dora="2p").begin()
    # go-around 1
    b.turn(0, "2s")
    b.draw(1, "9m")
    b.discard(1, "4z")
    b.turn(2, "1p")
    b.draw(3, "8p")
    b.discard(3, "1z")
    # go-around 2: S3 chis S2's 3s with 45s and discards 9m
    b.turn(0, "3p")
    b.draw(1, "6m")
    b.discard(1, "2z")
    three = b.turn(2, "3s")
    b.chi(3, 2, three, "45s")
    b.discard(3, "9m")
    # go-around 3: the dealer pons S1's haku and lets the 8s go
    b.turn(0, "4p")
    b.draw(1, "7s")
    haku = b.discard(1, "5z")
    b.pon(0, 1, haku)
    b.discard(0, "8s")
    # go-around 4: S2 draws East and declares riichi on it
    b.draw(1, "3m")
    b.discard(1, "1s")
    b.draw(2, "1z")
    b.riichi(2, "1z")
    b.turn(3, "6m")
    b.turn(0, "5p")
    # go-around 5: S1 lets the chun go
    b.draw(1, "8p")
    chun = b.discard(1, "7z")
    hand = sorted(b.hands[0] + [chun])
    melds = ",".join(map(str, b.melds[0]))
    scores = b.scores  # the riichi stick is paid: S2 has 24,000
    sc = ",".join(f"{v},{d}" for v, d in zip(scores, (490, -480, 0, 0), strict=True))
    final = [scores[0] + 490, scores[1] - 480, scores[2], scores[3]]
    owari = ",".join(f"{v},{p}" for v, p in zip(final, ("84.0", "-73.0", "-16.0", "5.0"), strict=True))
    end = (f'<AGARI ba="0,1" hai="{",".join(map(str, hand))}" m="{melds}" machi="{chun}" ten="40,48000,5" '
           f'yakuman="39" doraHai="{b.dora}" who="0" fromWho="1" sc="{sc}" owari="{owari}"/>')
    names = " ".join(f'n{s}="{quote(name)}"' for s, name in enumerate(NAMES))
    header = (f'<mjloggm ver="2.3"><GO type="169" lobby="0"/><UN {names} dan="16,16,17,16" '
              'rate="2150.00,2080.50,2240.25,2090.00" sx="M,F,M,F"/><TAIKYOKU oya="0"/>')
    return (header + b.init() + "".join(b.tags) + end + "</mjloggm>").encode()


if __name__ == "__main__":
    sys.stdout.buffer.write(demo_hand() + b"\n")
