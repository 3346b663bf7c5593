package planner

import (
	"reflect"
	"strings"
	"testing"
)

// A plan item may name its phone (docs/design.md#goals-that-span-phones);
// Phones is aligned with Plan, and a phone that is no serial or selector
// is fed back.
func TestPlanItemNamesItsPhone(t *testing.T) {
	d, err := ParsePlan(`{"status":"planned","plan":[{"todo":"Read the code","phone":"label=work"},"Open Notes",{"todo":"Type 482913","phone":"emulator-5556"}],"task_type":"copy_code"}`)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"label=work", "", "emulator-5556"}; !reflect.DeepEqual(d.Phones, want) || len(d.Plan) != 3 {
		t.Errorf("plan %q on %q, want phones %q", d.Plan, d.Phones, want)
	}
	d, err = ParsePlan(`{"status":"planned","plan":["Open Notes"],"task_type":"x"}`)
	if err != nil || d.Phones != nil {
		t.Errorf("a plan naming no phone: %+v, %v; want no phones", d, err)
	}
	for _, bad := range []string{`"kind=work"`, `"the work phone"`, `""`} {
		_, err := ParsePlan(`{"status":"planned","plan":[{"todo":"Open Notes","phone":` + bad + `}],"task_type":"x"}`)
		if err == nil || !strings.Contains(err.Error(), `"phone"`) {
			t.Errorf("phone %s accepted or not named: %v", bad, err)
		}
	}
	msgs := BuildPlanMessages(PlanContext{Goal: "g", Phones: []Phone{{Serial: "s1", Labels: []string{"work"}}}}, nil)
	if !strings.Contains(msgs[0].Text, `"phone":"label=work"`) || !strings.Contains(msgs[1].Text, `"labels":["work"]`) {
		t.Errorf("the planner is not told of the fleet: %+v", msgs)
	}
	if strings.Contains(BuildPlanMessages(PlanContext{Goal: "g"}, nil)[0].Text, phonesNote) {
		t.Error("a goal without a fleet is told of phones")
	}
}
