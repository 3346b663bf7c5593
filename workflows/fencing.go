package workflows

import (
	"bytes"
	"encoding/json"
)

// ChangeLeaseToken: the goal's phone_held answer to its todo carries the
// fencing token of the grant it holds again, so the todo's next steps act
// under it (docs/design.md §5). Runs without the marker answer with the
// bare request number. Tokens themselves add no command: the lease computes
// them from its state and workflow time, and they travel in signal and
// activity inputs.
const ChangeLeaseToken = "lease-fencing-token"

// phoneHeld is the payload of SignalPhoneHeld: the todo's request and the
// token of the grant the goal holds. Goals from before ChangeLeaseToken
// send the request number alone, which decodes as a phoneHeld without a
// token.
type phoneHeld struct {
	Seq   int   `json:"seq"`
	Token int64 `json:"token,omitempty"`
}

func (p *phoneHeld) UnmarshalJSON(b []byte) error {
	if b = bytes.TrimSpace(b); len(b) > 0 && b[0] != '{' {
		*p = phoneHeld{}
		return json.Unmarshal(b, &p.Seq)
	}
	type plain phoneHeld
	return json.Unmarshal(b, (*plain)(p))
}
