package activities

import (
	"context"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/planner"
)

// NameChoosePhone is the activity in which the planner chooses the phone
// of a goal started without one (docs/design.md#phone-fleet).
const NameChoosePhone = "ChoosePhone"

// ChoosePhoneInput is the goal and the fleet the planner chooses from,
// as ListFleet answered it.
type ChoosePhoneInput struct {
	Goal   string       `json:"goal"`
	Phones []FleetEntry `json:"phones"`
}

// ChoosePhoneResult is the phone the planner chose and why. An answer
// that named no listed phone twice leaves Serial empty with Invalid set:
// the goal fails saying so.
type ChoosePhoneResult struct {
	Serial  string    `json:"serial,omitempty"`
	Reason  string    `json:"reason,omitempty"`
	Invalid string    `json:"invalid,omitempty"`
	Usage   llm.Usage `json:"usage,omitzero"`
}

// ChoosePhone asks the planner which phone of the fleet the goal runs on.
// An answer that breaks the contract (no JSON, a serial not listed) is
// fed back once.
func (a *Activities) ChoosePhone(ctx context.Context, in ChoosePhoneInput) (ChoosePhoneResult, error) {
	defer keepAlive(ctx, StepHeartbeat)()
	if a.Planner == nil {
		return ChoosePhoneResult{}, temporal.NewNonRetryableApplicationError("no planner model configured", ErrTypeConfig, nil)
	}
	cc := ChooseContext(in)
	serials := make([]string, 0, len(cc.Phones))
	for _, p := range cc.Phones {
		serials = append(serials, p.Serial)
	}
	var c planner.PhoneChoice
	usage, invalid, err := a.chatStrict(ctx, planner.ChooseSchema, planner.BuildChooseMessages(cc), func(text string) (err error) {
		c, err = planner.ParsePhoneChoice(text, serials)
		return err
	})
	if err != nil {
		return ChoosePhoneResult{}, err
	}
	if invalid != "" {
		return ChoosePhoneResult{Invalid: invalid, Usage: usage}, nil
	}
	return ChoosePhoneResult{Serial: c.Serial, Reason: c.Reason, Usage: usage}, nil
}

// ChooseContext is the planner's view of a choice: each phone's facts and
// whether it is free, held or not served.
func ChooseContext(in ChoosePhoneInput) planner.ChooseContext {
	cc := planner.ChooseContext{Goal: in.Goal}
	for _, e := range in.Phones {
		f := e.Phone.Facts
		cp := planner.ChoicePhone{Serial: e.Phone.Serial, Labels: e.Phone.Labels, Model: f.Model, Android: f.Android,
			Apps: f.Apps, Lock: f.Lock, State: planner.PhoneHeld}
		switch {
		case !e.Served:
			cp.State = planner.PhoneUnserved
		case e.Free:
			cp.State = planner.PhoneFree
		}
		cc.Phones = append(cc.Phones, cp)
	}
	return cc
}
