package eval

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"

	"github.com/phoneflow/phoneflow/internal/modelserver"
)

// ApplyFaults sets offline model faults by name: "misread" sets the model
// server's RateMisread, "wrong-tap" its RateWrongTap, and so on for every
// Rate… field the server has, so a fault added to the server is usable
// here without a change. An unknown name is an error that lists the known
// ones.
func ApplyFaults(cfg *modelserver.Config, faults map[string]float64) error {
	names := make([]string, 0, len(faults))
	for n := range faults {
		names = append(names, n)
	}
	sort.Strings(names)
	v := reflect.ValueOf(cfg).Elem()
	for _, n := range names {
		rate := faults[n]
		if rate < 0 || rate > 1 || math.IsNaN(rate) {
			return fmt.Errorf("fault %s=%v: give a rate between 0 and 1, e.g. %s=0.2", n, rate, n)
		}
		f, ok := rateField(v, n)
		if !ok {
			return fmt.Errorf("fault %q: the offline model server has no such fault; known: %s", n, strings.Join(FaultNames(), ", "))
		}
		f.SetFloat(rate)
	}
	return nil
}

// FaultNames lists the fault names ApplyFaults knows, in the server's
// field order ("wrong-tap" for RateWrongTap).
func FaultNames() []string {
	var out []string
	t := reflect.TypeFor[modelserver.Config]()
	for i := range t.NumField() {
		f := t.Field(i)
		if name, ok := strings.CutPrefix(f.Name, "Rate"); ok && name != "" && f.Type.Kind() == reflect.Float64 {
			out = append(out, kebab(name))
		}
	}
	return out
}

func rateField(v reflect.Value, name string) (reflect.Value, bool) {
	norm := func(s string) string {
		return strings.TrimSuffix(strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(s)), "s")
	}
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if n, ok := strings.CutPrefix(f.Name, "Rate"); ok && n != "" && f.Type.Kind() == reflect.Float64 && norm(n) == norm(name) {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

// kebab turns WrongTap into wrong-tap and Limit429 into limit429.
func kebab(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('-')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}
