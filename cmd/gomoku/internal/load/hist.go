package load

import (
	"math"
	"math/bits"
	"sync/atomic"
	"time"
)

// Histogram is a lock-free log-bucket latency histogram in the spirit of HdrHistogram:
// values are microseconds; each power of two is split into 64 linear sub-buckets, so a
// reported quantile is within 1/64 (1.6%) of the true value (values below 64 µs are exact).
// Record may be called from many goroutines at once; the zero value is not usable, call
// NewHistogram.
type Histogram struct {
	counts []atomic.Uint64
	n      atomic.Uint64
	sum    atomic.Uint64 // µs
	max    atomic.Uint64 // µs
}

const (
	subBits    = 6
	subBuckets = 1 << subBits // 64
	// maxShift covers values up to 2^(maxShift+subBits+1) µs, more than a day.
	maxShift = 31
	nBuckets = subBuckets + (maxShift+1)*subBuckets
)

// NewHistogram returns an empty histogram.
func NewHistogram() *Histogram { return &Histogram{counts: make([]atomic.Uint64, nBuckets)} }

// bucketOf returns the bucket index of v µs.
func bucketOf(v uint64) int {
	if v < subBuckets {
		return int(v)
	}
	shift := bits.Len64(v) - subBits - 1
	if shift > maxShift {
		return nBuckets - 1
	}
	return subBuckets + shift*subBuckets + int(v>>uint(shift)) - subBuckets
}

// bucketHigh returns the largest value (µs) that falls into bucket i.
func bucketHigh(i int) uint64 {
	if i < subBuckets {
		return uint64(i)
	}
	shift := (i - subBuckets) / subBuckets
	m := uint64((i-subBuckets)%subBuckets + subBuckets)
	return (m+1)<<uint(shift) - 1
}

// Record adds one duration (negative durations count as zero).
func (h *Histogram) Record(d time.Duration) {
	v := uint64(0)
	if d > 0 {
		v = uint64(d / time.Microsecond)
	}
	h.counts[bucketOf(v)].Add(1)
	h.n.Add(1)
	h.sum.Add(v)
	for {
		m := h.max.Load()
		if v <= m || h.max.CompareAndSwap(m, v) {
			break
		}
	}
}

// Count returns the number of recorded values.
func (h *Histogram) Count() uint64 { return h.n.Load() }

// Max returns the largest recorded value.
func (h *Histogram) Max() time.Duration { return time.Duration(h.max.Load()) * time.Microsecond }

// Mean returns the mean of the recorded values (0 when empty).
func (h *Histogram) Mean() time.Duration {
	n := h.n.Load()
	if n == 0 {
		return 0
	}
	return time.Duration(h.sum.Load()/n) * time.Microsecond
}

// Quantile returns the value at quantile q (0..1): the upper bound of the bucket holding
// the ceil(q*n)-th smallest value, capped at the maximum. 0 when empty.
func (h *Histogram) Quantile(q float64) time.Duration {
	n := h.n.Load()
	if n == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(n)))
	if rank < 1 {
		rank = 1
	}
	var seen uint64
	mx := h.max.Load()
	for i := range h.counts {
		seen += h.counts[i].Load()
		if seen >= rank {
			v := bucketHigh(i)
			if v > mx {
				v = mx
			}
			return time.Duration(v) * time.Microsecond
		}
	}
	return time.Duration(mx) * time.Microsecond
}

// Merge adds every value of o to h.
func (h *Histogram) Merge(o *Histogram) {
	for i := range o.counts {
		if c := o.counts[i].Load(); c > 0 {
			h.counts[i].Add(c)
		}
	}
	h.n.Add(o.n.Load())
	h.sum.Add(o.sum.Load())
	for {
		m, v := h.max.Load(), o.max.Load()
		if v <= m || h.max.CompareAndSwap(m, v) {
			break
		}
	}
}

// Summary is a histogram's quantiles in milliseconds, for reports.
type Summary struct {
	Count uint64  `json:"count"`
	Mean  float64 `json:"mean_ms"`
	P50   float64 `json:"p50_ms"`
	P95   float64 `json:"p95_ms"`
	P99   float64 `json:"p99_ms"`
	P999  float64 `json:"p999_ms"`
	Max   float64 `json:"max_ms"`
}

func ms(d time.Duration) float64 { return math.Round(float64(d)/1e3) / 1e3 }

// Summary returns the histogram's quantiles.
func (h *Histogram) Summary() Summary {
	return Summary{
		Count: h.Count(), Mean: ms(h.Mean()),
		P50: ms(h.Quantile(0.50)), P95: ms(h.Quantile(0.95)), P99: ms(h.Quantile(0.99)),
		P999: ms(h.Quantile(0.999)), Max: ms(h.Max()),
	}
}
