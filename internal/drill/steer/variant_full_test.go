//go:build drills

package steer

// sequences is how many bursts the full drill sends.
const sequences = 100

// childStartPhones is how many phones the full drill steers around todo starts.
const childStartPhones = 3
