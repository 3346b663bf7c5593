package activities

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/fleet"
	"github.com/phoneflow/phoneflow/internal/planner"
)

// choiceFleet is a fleet of three phones: free, held and not served.
var choiceFleet = []FleetEntry{
	{Phone: fleet.Phone{Serial: "emu-1", Labels: []string{"shop"},
		Facts: device.Facts{Model: "Pixel 7", Android: "14", Lock: device.LockKindNone, Apps: []string{"Clock", "Messages"}}}, Served: true, Free: true},
	{Phone: fleet.Phone{Serial: "emu-2", Labels: []string{"shop", "till"}, Facts: device.Facts{Model: "Pixel 8", Android: "15", Lock: device.LockKindSecure}},
		Served: true, Holder: "goal-a"},
	{Phone: fleet.Phone{Serial: "emu-3"}},
}

// The planner is shown the goal and every phone with its serial, labels,
// model, Android version, apps, lock kind and state, and its serial and
// reason come back.
func TestChoosePhoneShowsThePlannerTheFleet(t *testing.T) {
	a, _, m := newActivities(t, `{"serial":"emu-2","reason":"the goal names the label till"}`)
	res, err := a.ChoosePhone(context.Background(), ChoosePhoneInput{Goal: "Read the Android version on the phone labelled till", Phones: choiceFleet})
	if err != nil || res.Serial != "emu-2" || res.Reason != "the goal names the label till" || res.Invalid != "" || res.Usage.Calls != 1 {
		t.Fatalf("ChoosePhone = %+v, %v", res, err)
	}
	req := m.last()
	if len(req) != 2 || !strings.HasPrefix(req[0].Text, "You are the planner, choosing the phone") {
		t.Fatalf("request = %+v", req)
	}
	body := req[1].Text[strings.Index(req[1].Text, "```json")+len("```json") : strings.LastIndex(req[1].Text, "```")]
	var cc planner.ChooseContext
	if err := json.Unmarshal([]byte(body), &cc); err != nil {
		t.Fatalf("the fleet is not one JSON object: %v\n%s", err, req[1].Text)
	}
	want := planner.ChooseContext{Goal: "Read the Android version on the phone labelled till", Phones: []planner.ChoicePhone{
		{Serial: "emu-1", Labels: []string{"shop"}, Model: "Pixel 7", Android: "14", Apps: []string{"Clock", "Messages"}, Lock: device.LockKindNone, State: planner.PhoneFree},
		{Serial: "emu-2", Labels: []string{"shop", "till"}, Model: "Pixel 8", Android: "15", Lock: device.LockKindSecure, State: planner.PhoneHeld},
		{Serial: "emu-3", State: planner.PhoneUnserved},
	}}
	got, _ := json.Marshal(cc)
	exp, _ := json.Marshal(want)
	if string(got) != string(exp) {
		t.Errorf("the planner was shown\n%s\nwant\n%s", got, exp)
	}
}

// An answer that breaks the contract (no JSON, a serial not listed, no
// reason) is fed back once with what to fix; a second bad answer comes
// back as Invalid with no serial, both calls counted.
func TestChoosePhoneFeedsABadAnswerBackOnce(t *testing.T) {
	a, _, m := newActivities(t, `The till phone.`, `{"serial":"emu-1","reason":"it is free"}`)
	res, err := a.ChoosePhone(context.Background(), ChoosePhoneInput{Goal: "g", Phones: choiceFleet})
	if err != nil || res.Serial != "emu-1" || res.Invalid != "" || res.Usage.Calls != 2 {
		t.Fatalf("ChoosePhone = %+v, %v (want the second answer)", res, err)
	}
	if req := m.last(); len(req) != 4 || req[2].Text != "The till phone." || !strings.Contains(req[3].Text, "broke the contract") {
		t.Fatalf("retry request = %+v", req)
	}
	for _, tc := range []struct{ first, second, want string }{
		{`{"serial":"emu-9","reason":"x"}`, `{"serial":"till","reason":"x"}`, `"till", which is none of the listed phones: answer with one of emu-1, emu-2, emu-3`},
		{`{"serial":"emu-1"}`, `{"serial":"emu-1","reason":""}`, `"reason" is missing`},
		{`{"serial":"","reason":"x"}`, `{"phone":"emu-1","reason":"x"}`, `"phone"`},
	} {
		a, _, m := newActivities(t, tc.first, tc.second)
		res, err := a.ChoosePhone(context.Background(), ChoosePhoneInput{Goal: "g", Phones: choiceFleet})
		if err != nil || res.Serial != "" || !strings.Contains(res.Invalid, tc.want) || res.Usage.Calls != 2 {
			t.Errorf("answers %s then %s: %+v, %v; want Invalid naming %s", tc.first, tc.second, res, err, tc.want)
		}
		if req := m.last(); len(req) != 4 || req[2].Text != tc.first {
			t.Errorf("answers %s then %s: the first was not fed back: %+v", tc.first, tc.second, req)
		}
	}
}

// Without a planner model the choice is a configuration error.
func TestChoosePhoneWithoutAPlanner(t *testing.T) {
	a, _, _ := newActivities(t)
	a.Planner = nil
	if _, err := a.ChoosePhone(context.Background(), ChoosePhoneInput{Goal: "g", Phones: choiceFleet}); err == nil || !strings.Contains(err.Error(), "no planner model") {
		t.Fatalf("err = %v", err)
	}
}
