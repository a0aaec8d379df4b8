"""planted.py -- random DNA with planted copies of a few patterns (half of
them with one base changed), so that a search of it has matches to find:
what the CLI tests that make their own inputs share (imported from their
Python with tests/cli on sys.path)."""


def planted(rng, n, plant, every):
    """n random bases, one of `plant` copied in about every `every` bases."""
    s = [rng.choice('ACGT') for _ in range(n)]
    for _ in range(n // every + 1):
        p = rng.choice(plant)
        if n > len(p):
            i = rng.randrange(n - len(p))
            q = list(p)
            if rng.random() < 0.5:  # an edit
                j = rng.randrange(len(q))
                q[j] = rng.choice('ACGT')
            s[i:i + len(q)] = q
    return ''.join(s)


def wrap(s, w):
    """s in lines of w bytes (one empty line for an empty s)."""
    return [s[i:i + w] for i in range(0, len(s), w)] or ['']
