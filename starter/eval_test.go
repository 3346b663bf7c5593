package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/eval"
)

func TestSelectCases(t *testing.T) {
	cases := []eval.Case{{ID: "a", Fast: true}, {ID: "b"}, {ID: "c", Fast: true}}
	ids := func(cs []eval.Case) string {
		var s []string
		for _, c := range cs {
			s = append(s, c.ID)
		}
		return strings.Join(s, ",")
	}
	for _, tc := range []struct {
		only string
		fast bool
		want string
	}{{"", false, "a,b,c"}, {"", true, "a,c"}, {"b", false, "b"}, {"a, b", true, "a"}} {
		got, err := selectCases(cases, tc.only, tc.fast)
		if err != nil || ids(got) != tc.want {
			t.Errorf("selectCases(%q, %v) = %s, %v; want %s", tc.only, tc.fast, ids(got), err, tc.want)
		}
	}
	if _, err := selectCases(cases, "a,zz", false); err == nil || !strings.Contains(err.Error(), "zz") {
		t.Errorf("unknown id: err = %v, want one naming zz", err)
	}
	if _, err := selectCases(cases, "b", true); err == nil {
		t.Error("an empty selection was accepted")
	}
}

// TestEvalRefusesAnUnknownSkin: the skin is checked before any stack
// starts, and the error names the skins.
func TestEvalRefusesAnUnknownSkin(t *testing.T) {
	cmd := newEvalCmd()
	cmd.SetArgs([]string{"--suite", "generated", "--skin", "material"})
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	err := cmd.Execute()
	if err == nil || !strings.Contains(err.Error(), "--skin") || !strings.Contains(err.Error(), "pixel") {
		t.Fatalf("--skin material: %v, want an error naming classic and pixel", err)
	}
}
