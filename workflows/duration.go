package workflows

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// Durations in workflow inputs are written as Go duration text ("2m0s") so
// the Web UI shows them readably, and read from that text ("30m", "1h",
// "90s") or from a number of nanoseconds, which inputs recorded before this
// format carry (docs/design.md §2).

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
			return 0, fmt.Errorf("duration %q: %w (write it like \"30m\", \"1h\" or \"90s\")", s, err)
		}
		return d, nil
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("duration %s: not a number of nanoseconds nor a text like \"30m\"", raw)
	}
	return time.Duration(n), nil
}

// durationField is one duration option and its JSON key.
type durationField struct {
	key string
	d   *time.Duration
}

// marshalWithDurations is the JSON of plain (a struct without custom
// marshalling) with the duration fields written as text.
func marshalWithDurations(plain any, fields []durationField) ([]byte, error) {
	b, err := json.Marshal(plain)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for _, f := range fields {
		delete(m, f.key)
		if *f.d != 0 {
			m[f.key], _ = json.Marshal(durationText(*f.d))
		}
	}
	return json.Marshal(m)
}

// unmarshalWithDurations decodes b into plain, reading the duration fields
// as text or nanoseconds, and returns the keys b holds.
func unmarshalWithDurations(b []byte, plain any, fields []durationField) (map[string]bool, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	given := make(map[string]bool, len(m))
	for k := range m {
		given[k] = true
	}
	raw := map[string]json.RawMessage{}
	for _, f := range fields {
		if v, ok := m[f.key]; ok {
			raw[f.key] = v
			delete(m, f.key)
		}
	}
	rest, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(rest, plain); err != nil {
		return nil, err
	}
	for _, f := range fields {
		v, err := parseDuration(raw[f.key])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.key, err)
		}
		*f.d = v
	}
	return given, nil
}

// durationFields lists the duration options of a GoalOptions or a
// TodoInput, in one order for both.
func durationFields(deviceWait, outage, answer, durableAfter, releaseAfter *time.Duration) []durationField {
	return []durationField{
		{"device_wait_deadline", deviceWait},
		{"model_outage_wait", outage},
		{"answer_deadline", answer},
		{"durable_wait_after", durableAfter},
		{"release_phone_after", releaseAfter},
	}
}

func (o *GoalOptions) durations() []durationField {
	return durationFields(&o.DeviceWaitDeadline, &o.ModelOutageWait, &o.AnswerDeadline, &o.DurableWaitAfter, &o.ReleasePhoneAfter)
}

func (in *TodoInput) durations() []durationField {
	return durationFields(&in.DeviceWaitDeadline, &in.ModelOutageWait, &in.AnswerDeadline, &in.DurableWaitAfter, &in.ReleasePhoneAfter)
}

// MarshalJSON writes the duration options as text.
func (o GoalOptions) MarshalJSON() ([]byte, error) {
	type plain GoalOptions
	return marshalWithDurations(plain(o), o.durations())
}

// UnmarshalJSON reads the duration options as text or nanoseconds, and
// remembers which options the input gave (see GoalOptions.Resolved).
func (o *GoalOptions) UnmarshalJSON(b []byte) error {
	type plain GoalOptions
	var p plain
	given, err := unmarshalWithDurations(b, &p, (*GoalOptions)(&p).durations())
	if err != nil {
		return err
	}
	*o = GoalOptions(p)
	o.given = given
	return nil
}

// MarshalJSON writes the duration options as text.
func (in TodoInput) MarshalJSON() ([]byte, error) {
	type plain TodoInput
	return marshalWithDurations(plain(in), in.durations())
}

// UnmarshalJSON reads the duration options as text or nanoseconds.
func (in *TodoInput) UnmarshalJSON(b []byte) error {
	type plain TodoInput
	var p plain
	if _, err := unmarshalWithDurations(b, &p, (*TodoInput)(&p).durations()); err != nil {
		return err
	}
	*in = TodoInput(p)
	return nil
}
