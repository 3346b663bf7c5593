//go:build !drills

package steer

// sequences is how many bursts the default run sends.
const sequences = 10
