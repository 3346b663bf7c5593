package phonesim

import (
	"reflect"
	"testing"
)

func TestParseLine(t *testing.T) {
	tests := []struct {
		line string
		want []pipeline
	}{
		{"input tap 1 2", []pipeline{{cmds: []shCmd{{args: []string{"input", "tap", "1", "2"}}}}}},
		{`echo 'a b' "c \"d\"" e\ f`, []pipeline{{cmds: []shCmd{{args: []string{"echo", "a b", `c "d"`, "e f"}}}}}},
		{"a; b && c || d", []pipeline{
			{cmds: []shCmd{{args: []string{"a"}}}},
			{op: ";", cmds: []shCmd{{args: []string{"b"}}}},
			{op: "&&", cmds: []shCmd{{args: []string{"c"}}}},
			{op: "||", cmds: []shCmd{{args: []string{"d"}}}},
		}},
		{"dumpsys window | grep -E 'mCurrentFocus|mFocusedApp'", []pipeline{{cmds: []shCmd{
			{args: []string{"dumpsys", "window"}},
			{args: []string{"grep", "-E", "mCurrentFocus|mFocusedApp"}},
		}}}},
		{"echo x > /sdcard/f 2>/dev/null", []pipeline{{cmds: []shCmd{{args: []string{"echo", "x"}, outFile: "/sdcard/f", errNull: true}}}}},
		{"cmd 2>&1 >> out", []pipeline{{cmds: []shCmd{{args: []string{"cmd"}, errToOut: true, outFile: "out", appendOut: true}}}}},
		{"echo '2'>f", []pipeline{{cmds: []shCmd{{args: []string{"echo", "2"}, outFile: "f"}}}}},
		{"echo hi # comment", []pipeline{{cmds: []shCmd{{args: []string{"echo", "hi"}}}}}},
		{"am broadcast -a ADB_INPUT_TEXT --es msg '你好 世界'", []pipeline{{cmds: []shCmd{{args: []string{"am", "broadcast", "-a", "ADB_INPUT_TEXT", "--es", "msg", "你好 世界"}}}}}},
		{"", nil},
	}
	for _, tt := range tests {
		got, err := parseLine(tt.line)
		if err != nil {
			t.Errorf("%q: %v", tt.line, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", tt.line, got, tt.want)
		}
	}
	for _, bad := range []string{`echo "open`, "echo 'open", "| grep x", "&& x", "echo >"} {
		if _, err := parseLine(bad); err == nil {
			t.Errorf("%q parsed, want a syntax error", bad)
		}
	}
}

func FuzzParseLine(f *testing.F) {
	for _, s := range []string{"input tap 1 2", `echo "a \"b\"" 'c'`, "a | b && c || d; e", "x 2>&1 > f", "echo \\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		pls, err := parseLine(line)
		if err != nil {
			return
		}
		for _, pl := range pls {
			if len(pl.cmds) == 0 {
				t.Fatalf("%q: empty pipeline %+v", line, pl)
			}
			for _, c := range pl.cmds {
				if len(c.args) == 0 {
					t.Fatalf("%q: command without arguments", line)
				}
			}
		}
	})
}
