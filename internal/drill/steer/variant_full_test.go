//go:build drills

package steer

// sequences is how many bursts the full drill sends.
const sequences = 100
