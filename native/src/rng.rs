//! CPython's `random.Random`: the Mersenne Twister MT19937 and the draws built on it, bit for
//! bit, so that a seed gives the same deals, turned cards and playouts in both cores.
//!
//! The state crosses the boundary as `random.Random.getstate()` gives it (624 words and the
//! position), so a Python generator handed to a native search continues where the search left it.

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// A Mersenne Twister with CPython's `random.Random` draws.
#[derive(Clone)]
pub struct PyRandom {
    mt: [u32; N],
    index: usize,
}

impl PyRandom {
    /// The generator of `random.Random(seed)` for a whole number `seed` (`init_by_array` over the
    /// 32-bit words of `abs(seed)`, least significant first).
    pub fn from_seed(seed: u128) -> Self {
        let mut key = Vec::new();
        let mut n = seed;
        if n == 0 {
            key.push(0u32);
        }
        while n > 0 {
            key.push(n as u32);
            n >>= 32;
        }
        let mut rng = PyRandom {
            mt: [0; N],
            index: N,
        };
        rng.init_by_array(&key);
        rng
    }

    /// The generator whose state is `words` (624 words) at position `index` (0..=624), as
    /// `random.Random.getstate()[1]` lists them.
    pub fn from_state(words: &[u32], index: usize) -> Option<Self> {
        if words.len() != N || index > N {
            return None;
        }
        let mut mt = [0u32; N];
        mt.copy_from_slice(words);
        Some(PyRandom { mt, index })
    }

    /// The state as `(words, index)`, for `random.Random.setstate`.
    pub fn state(&self) -> (Vec<u32>, usize) {
        (self.mt.to_vec(), self.index)
    }

    fn init_genrand(&mut self, s: u32) {
        self.mt[0] = s;
        for i in 1..N {
            let prev = self.mt[i - 1];
            self.mt[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        self.index = N;
    }

    fn init_by_array(&mut self, key: &[u32]) {
        self.init_genrand(19_650_218);
        let mut i = 1usize;
        let mut j = 0usize;
        let len = key.len();
        let mut k = if N > len { N } else { len };
        while k > 0 {
            let prev = self.mt[i - 1];
            self.mt[i] = (self.mt[i] ^ ((prev ^ (prev >> 30)).wrapping_mul(1_664_525)))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                self.mt[0] = self.mt[N - 1];
                i = 1;
            }
            if j >= len {
                j = 0;
            }
            k -= 1;
        }
        k = N - 1;
        while k > 0 {
            let prev = self.mt[i - 1];
            self.mt[i] = (self.mt[i] ^ ((prev ^ (prev >> 30)).wrapping_mul(1_566_083_941)))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                self.mt[0] = self.mt[N - 1];
                i = 1;
            }
            k -= 1;
        }
        self.mt[0] = 0x8000_0000;
        self.index = N;
    }

    /// One 32-bit word (CPython's `genrand_uint32`).
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            let mag = |y: u32| if y & 1 == 1 { MATRIX_A } else { 0 };
            let mut kk = 0;
            while kk < N - M {
                let y = (self.mt[kk] & UPPER_MASK) | (self.mt[kk + 1] & LOWER_MASK);
                self.mt[kk] = self.mt[kk + M] ^ (y >> 1) ^ mag(y);
                kk += 1;
            }
            while kk < N - 1 {
                let y = (self.mt[kk] & UPPER_MASK) | (self.mt[kk + 1] & LOWER_MASK);
                self.mt[kk] = self.mt[kk + M - N] ^ (y >> 1) ^ mag(y);
                kk += 1;
            }
            let y = (self.mt[N - 1] & UPPER_MASK) | (self.mt[0] & LOWER_MASK);
            self.mt[N - 1] = self.mt[M - 1] ^ (y >> 1) ^ mag(y);
            self.index = 0;
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^= y >> 18;
        y
    }

    /// `getrandbits(k)` for `k` up to 64: words least significant first, the last one cut.
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        if k == 0 {
            return 0;
        }
        if k <= 32 {
            return u64::from(self.next_u32() >> (32 - k));
        }
        let low = u64::from(self.next_u32());
        let high = u64::from(self.next_u32() >> (64 - k));
        low | high << 32
    }

    /// `_randbelow(n)`: a whole number in `0..n` (`n >= 1`), by rejection on `n.bit_length()` bits.
    pub fn randbelow(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let k = 64 - n.leading_zeros();
        let mut r = self.getrandbits(k);
        while r >= n {
            r = self.getrandbits(k);
        }
        r
    }

    /// `randrange(n)`, as an index.
    pub fn randrange(&mut self, n: usize) -> usize {
        self.randbelow(n as u64) as usize
    }

    /// `random()`: a float in [0, 1) with 53 random bits.
    pub fn random(&mut self) -> f64 {
        let a = f64::from(self.next_u32() >> 5);
        let b = f64::from(self.next_u32() >> 6);
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `shuffle(items)`: Fisher-Yates from the end.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.randrange(i + 1);
            items.swap(i, j);
        }
    }

    /// `choice(items)`: one element; `None` for an empty slice.
    pub fn choice<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        if items.is_empty() {
            None
        } else {
            Some(items[self.randrange(items.len())])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_words_of_seed_zero() {
        // random.Random(0).getrandbits(32), three times, in CPython.
        let mut rng = PyRandom::from_seed(0);
        assert_eq!(rng.next_u32(), 3_626_764_237);
        assert_eq!(rng.next_u32(), 1_654_615_998);
        assert_eq!(rng.next_u32(), 3_255_389_356);
    }

    #[test]
    fn random_of_seed_42() {
        // random.Random(42).random() == 0.6394267984578837 in CPython.
        let mut rng = PyRandom::from_seed(42);
        assert_eq!(rng.random(), 0.639_426_798_457_883_7);
    }

    #[test]
    fn randbelow_stays_below() {
        let mut rng = PyRandom::from_seed(7);
        for n in 1..200u64 {
            assert!(rng.randbelow(n) < n);
        }
    }
}
