package workflows

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// Durations in workflow inputs are written as Go duration text ("2m0s") so
// the Web UI shows them readably, and read from that text or from a number
// of nanoseconds, which inputs recorded before this format carry
// (docs/design.md §7).

// durationText is the JSON form of d, or "" for zero (omitted).
func durationText(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return d.String()
}

// parseDuration reads a JSON duration: a string such as "2m0s" or "90s",
// a number of nanoseconds, or null.
func parseDuration(raw json.RawMessage) (time.Duration, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return 0, err
		}
		if s == "" {
			return 0, nil
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			return 0, fmt.Errorf("duration %q: %w (write it like \"2m\" or \"90s\")", s, err)
		}
		return d, nil
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("duration %s: not a number of nanoseconds nor a text like \"2m\"", raw)
	}
	return time.Duration(n), nil
}

// MarshalJSON writes DeviceWaitDeadline and ModelOutageWait as duration text.
func (o GoalOptions) MarshalJSON() ([]byte, error) {
	type plain GoalOptions
	return json.Marshal(struct {
		plain
		DeviceWaitDeadline string `json:"device_wait_deadline,omitempty"`
		ModelOutageWait    string `json:"model_outage_wait,omitempty"`
	}{plain(o), durationText(o.DeviceWaitDeadline), durationText(o.ModelOutageWait)})
}

// UnmarshalJSON reads DeviceWaitDeadline and ModelOutageWait as text or nanoseconds.
func (o *GoalOptions) UnmarshalJSON(b []byte) error {
	type plain GoalOptions
	aux := struct {
		*plain
		DeviceWaitDeadline json.RawMessage `json:"device_wait_deadline,omitempty"`
		ModelOutageWait    json.RawMessage `json:"model_outage_wait,omitempty"`
	}{plain: (*plain)(o)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	return readDurations(aux.DeviceWaitDeadline, aux.ModelOutageWait, &o.DeviceWaitDeadline, &o.ModelOutageWait)
}

// MarshalJSON writes DeviceWaitDeadline and ModelOutageWait as duration text.
func (in TodoInput) MarshalJSON() ([]byte, error) {
	type plain TodoInput
	return json.Marshal(struct {
		plain
		DeviceWaitDeadline string `json:"device_wait_deadline,omitempty"`
		ModelOutageWait    string `json:"model_outage_wait,omitempty"`
	}{plain(in), durationText(in.DeviceWaitDeadline), durationText(in.ModelOutageWait)})
}

// UnmarshalJSON reads DeviceWaitDeadline and ModelOutageWait as text or nanoseconds.
func (in *TodoInput) UnmarshalJSON(b []byte) error {
	type plain TodoInput
	aux := struct {
		*plain
		DeviceWaitDeadline json.RawMessage `json:"device_wait_deadline,omitempty"`
		ModelOutageWait    json.RawMessage `json:"model_outage_wait,omitempty"`
	}{plain: (*plain)(in)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	return readDurations(aux.DeviceWaitDeadline, aux.ModelOutageWait, &in.DeviceWaitDeadline, &in.ModelOutageWait)
}

// readDurations reads the two duration fields of GoalOptions and TodoInput.
func readDurations(device, outage json.RawMessage, deviceTo, outageTo *time.Duration) error {
	d, err := parseDuration(device)
	if err != nil {
		return fmt.Errorf("device_wait_deadline: %w", err)
	}
	o, err := parseDuration(outage)
	if err != nil {
		return fmt.Errorf("model_outage_wait: %w", err)
	}
	*deviceTo, *outageTo = d, o
	return nil
}
