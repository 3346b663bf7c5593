package main

import (
	"errors"

	"github.com/phoneflow/phoneflow/internal/fleet"
)

// onSelector reads --on: nil when it is not given (docs/design.md#phone-fleet).
func onSelector(f runFlags) (*fleet.Selector, error) {
	if f.on == "" {
		return nil, nil
	}
	if f.device != "" {
		return nil, errors.New("both --device and --on: name the phone, or say what kind of phone the goal may pick, not both")
	}
	s, err := fleet.ParseSelector(f.on)
	if err != nil {
		return nil, err
	}
	return &s, nil
}
