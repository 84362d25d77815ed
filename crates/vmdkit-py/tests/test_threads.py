"""Threads: reading, arrays and sampling from several threads at once give what one gives."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np

import vmdkit


def test_read_and_sample_from_many_threads(corpus_vmds, largest_dance):
    paths = [p for p, _ in corpus_vmds[:24]] + [largest_dance] * 4
    frames = np.linspace(0, 600, 97)

    def work(path):
        motion = vmdkit.read(path)
        pos, rot = motion.sample(frames)
        return motion.to_bytes(), motion.bones.position.copy(), pos, rot

    expected = [work(p) for p in paths]
    with ThreadPoolExecutor(max_workers=8) as pool:
        for _ in range(3):
            got = list(pool.map(work, paths))
            for a, b in zip(expected, got):
                assert a[0] == b[0]
                for x, y in zip(a[1:], b[1:]):
                    assert np.array_equal(x, y)


def test_one_motion_shared_by_threads(largest_dance):
    # The first accesses race to build the sampler and the cached columns.
    for _ in range(5):
        motion = vmdkit.read(largest_dance)
        frames = np.arange(0, 900, 3.5)

        def work(i):
            if i % 2:
                return motion.bones.rotation, motion.sample(frames)[1]
            return motion.bones.rotation, motion.sample(frames, bones=motion.bone_names)[1]

        with ThreadPoolExecutor(max_workers=6) as pool:
            results = list(pool.map(work, range(12)))
        columns = {id(r[0]) for r in results}
        assert len(columns) == 1
        for _, rot in results[1:]:
            assert np.array_equal(rot, results[0][1])
