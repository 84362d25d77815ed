//! Medians for the filters: of a few values in place, and of millions of values streamed twice
//! without storing them.

/// The median of `values` (the mean of the middle two for an even count), reordering them;
/// `None` when empty. Non-finite values must have been left out.
pub(super) fn median(values: &mut [f32]) -> Option<f32> {
    let n = values.len();
    if n == 0 {
        return None;
    }
    let (below, &mut upper, _) = values.select_nth_unstable_by(n / 2, f32::total_cmp);
    Some(if n % 2 == 1 {
        upper
    } else {
        let lower = below.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        (lower + upper) / 2.0
    })
}

/// Bits of an f32 dropped to name its bucket: the remaining 16 are the sign, the exponent and
/// 7 bits of mantissa, so a bucket spans under 1% of its values' size.
const SHIFT: u32 = 16;

/// The exact median of a multiset of non-negative finite numbers too large to store: counted
/// into buckets by their leading bits on a first pass ([`add`](Self::add)), then only those in
/// the buckets of the middle ranks kept and ordered on a second ([`median`](Self::median)).
/// Non-negative floats order as their bit patterns do, so the buckets are ordered too. A
/// clip's 10 million per-frame steps cost a 512 KiB table and a few thousand kept values, not
/// a 40 MB copy sorted in part.
pub(super) struct StreamMedian {
    counts: Vec<usize>,
    n: usize,
}

impl StreamMedian {
    pub(super) fn new() -> StreamMedian {
        StreamMedian { counts: vec![0; 1 << (32 - SHIFT)], n: 0 }
    }

    /// Counts one value, which must be finite and not negative.
    pub(super) fn add(&mut self, value: f32) {
        self.counts[(value.to_bits() >> SHIFT) as usize] += 1;
        self.n += 1;
    }

    /// The median of `map` of the values counted, as [`median`] computes it, `None` when none
    /// were; `again` must yield the same values as were added (in any order). `map` must not
    /// decrease (a square root), so that it keeps the values' order.
    pub(super) fn median(
        &self,
        again: impl Iterator<Item = f32>,
        map: impl Fn(f32) -> f32,
    ) -> Option<f32> {
        if self.n == 0 {
            return None;
        }
        let upper_rank = self.n / 2;
        let lower_rank = if self.n % 2 == 1 { upper_rank } else { upper_rank - 1 };
        let bucket_of = |rank: usize| {
            let mut before = 0;
            for (bucket, &count) in self.counts.iter().enumerate() {
                if before + count > rank {
                    return (bucket as u32, before);
                }
                before += count;
            }
            unreachable!("rank {rank} beyond the {} values counted", self.n)
        };
        let ((first, before), (last, _)) = (bucket_of(lower_rank), bucket_of(upper_rank));
        let mut middle: Vec<f32> =
            again.filter(|v| (first..=last).contains(&(v.to_bits() >> SHIFT))).collect();
        let (below, &mut upper, _) =
            middle.select_nth_unstable_by(upper_rank - before, f32::total_cmp);
        Some(if self.n % 2 == 1 {
            map(upper)
        } else {
            let lower = below.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            (map(lower) + map(upper)) / 2.0
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keypoints::filter::test_rng::Rng;

    #[test]
    fn medians() {
        assert_eq!(median(&mut []), None);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), Some(2.5));
    }

    #[test]
    fn streamed_medians_equal_sorted_ones() {
        let mut rng = Rng::new(5);
        for n in [1, 2, 3, 4, 7, 10, 101, 1000, 4321] {
            // Spread over many buckets, with ties and zeros.
            let values: Vec<f32> = (0..n)
                .map(|i| match i % 5 {
                    0 => 0.0,
                    1 => 1.5,
                    _ => (rng.normal() as f32 * 8.0).exp2(),
                })
                .collect();
            let mut stream = StreamMedian::new();
            values.iter().for_each(|&v| stream.add(v));
            let mut roots: Vec<f32> = values.iter().map(|v| v.sqrt()).collect();
            let expected = median(&mut roots).unwrap();
            let got = stream.median(values.iter().rev().copied(), f32::sqrt).unwrap();
            assert_eq!(got.to_bits(), expected.to_bits(), "{n}");
        }
        assert_eq!(StreamMedian::new().median(std::iter::empty(), f32::sqrt), None);
    }
}
