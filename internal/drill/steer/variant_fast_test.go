//go:build !drills

package steer

// sequences is how many bursts the default run sends.
const sequences = 10

// childStartPhones is how many phones the default run steers around todo starts.
const childStartPhones = 1
