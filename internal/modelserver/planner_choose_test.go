package modelserver

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/planner"
)

// The offline planner chooses a goal's phone by three rules in order: a
// phone whose label, serial or model the goal names; else a phone with
// the app the goal needs; else the first free phone. A free phone comes
// before a held one, and the reason says which rule chose. Its answers
// keep the contract.
func TestOfflinePlannerChoosesThePhone(t *testing.T) {
	phones := []planner.ChoicePhone{
		{Serial: "emulator-5554", Labels: []string{"shop"}, Model: "Pixel 7", Android: "14", Apps: []string{"Clock", "Messages"}, State: planner.PhoneHeld},
		{Serial: "emulator-5556", Labels: []string{"shop", "front"}, Model: "Pixel 8", Android: "15", Apps: []string{"Clock", "Messages"}, State: planner.PhoneFree},
		{Serial: "emulator-5558", Labels: []string{"shop", "till"}, Model: "SM-T500", Android: "13", Apps: []string{"Clock", "Contacts"}, State: planner.PhoneFree},
	}
	for _, c := range []struct {
		name, goal, serial, reason string
		phones                     []planner.ChoicePhone
	}{
		{"a label", "Read the Android version on the phone labelled till, then send it to Alice", "emulator-5558", "the goal names the label till", phones},
		{"a label of several, the free one", "Open Clock on the shop phone", "emulator-5556", "the goal names the label shop", phones},
		{"a serial", "Turn on Wi-Fi on phone emulator-5554", "emulator-5554", "the goal names phone emulator-5554", phones},
		{"a model", "Turn on Wi-Fi on the SM-T500", "emulator-5558", "the goal names the model SM-T500", phones},
		{"an app", "Add Bob Li to Contacts", "emulator-5558", "the goal needs Contacts", phones},
		{"an app on two, the free one", "Send 'hi' to Alice in Messages", "emulator-5556", "the goal needs Messages", phones},
		{"nothing named", "Turn on Bluetooth", "emulator-5556", "the first free phone", phones},
		{"nothing free", "Turn on Bluetooth", "emulator-5554", "no phone is free",
			[]planner.ChoicePhone{{Serial: "emulator-5554", State: planner.PhoneHeld}, {Serial: "emulator-5556", State: planner.PhoneUnserved}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			msgs := planner.BuildChooseMessages(planner.ChooseContext{Goal: c.goal, Phones: c.phones})
			in := []message{{Role: "system", Text: msgs[0].Text}, {Role: "user", Text: msgs[1].Text}}
			if roleFor(PlannerModel, in) != roleChoose {
				t.Fatalf("role = %s", roleFor(PlannerModel, in))
			}
			var serials []string
			for _, p := range c.phones {
				serials = append(serials, p.Serial)
			}
			got, err := planner.ParsePhoneChoice(New(Config{}).chooseAnswer(in, faults{}), serials)
			if err != nil {
				t.Fatal(err)
			}
			if got.Serial != c.serial || !strings.Contains(got.Reason, c.reason) {
				t.Errorf("chose %+v, want %s because %q", got, c.serial, c.reason)
			}
		})
	}
}
