package bench

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// Sample is a set of repeated measurements of one quantity.
type Sample []float64

// Median returns the middle value (mean of the two middle values for an
// even count), or NaN for an empty sample.
func (s Sample) Median() float64 { return s.Quantile(0.5) }

// Quantile returns the q-quantile (0..1) by linear interpolation between
// closest ranks, or NaN for an empty sample.
func (s Sample) Quantile(q float64) float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	v := slices.Clone(s)
	slices.Sort(v)
	pos := q * float64(len(v)-1)
	lo := int(math.Floor(pos))
	hi := int(math.Ceil(pos))
	if lo == hi {
		return v[lo]
	}
	return v[lo] + (v[hi]-v[lo])*(pos-float64(lo))
}

// Min returns the smallest value, or NaN for an empty sample.
func (s Sample) Min() float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	return slices.Min(s)
}

// Max returns the largest value, or NaN for an empty sample.
func (s Sample) Max() float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	return slices.Max(s)
}

// Summary formats "median (min–max)" with the given precision.
func (s Sample) Summary(prec int) string {
	if len(s) == 0 {
		return "n/a"
	}
	if len(s) == 1 {
		return fmt.Sprintf("%.*f", prec, s[0])
	}
	return fmt.Sprintf("%.*f (%.*f–%.*f)", prec, s.Median(), prec, s.Min(), prec, s.Max())
}

// Ms converts a duration to float milliseconds.
func Ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
