package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzSetValue feeds arbitrary strings to every key, as the environment
// and flags do: no panic, secrets never in errors, and an accepted value
// prints in a form that reads back to the same value.
func FuzzSetValue(f *testing.F) {
	for _, s := range []string{"", "0", "-1", "abc", "1.5", "true", "2m", "1e309", "NaN", "a,b,,c", "9999999999", "127.0.0.1:7233"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, k := range keys {
			var c Config
			err := k.set(&c, s, "fuzz")
			if err != nil {
				if k.Secret && len(s) > 4 && strings.Contains(err.Error(), s) {
					t.Fatalf("%s: error shows the secret: %v", k.Key, err)
				}
				continue
			}
			printed := formatValue(k.field(&c).Interface())
			var back Config
			raw := any(printed)
			switch k.Kind {
			case kindString:
				raw = k.field(&c).String()
			case kindList:
				raw = k.field(&c).Interface()
			}
			if err := k.set(&back, raw, "fuzz"); err != nil {
				t.Fatalf("%s: %q accepted, but its printed form %q is not: %v", k.Key, s, printed, err)
			}
			if formatValue(back.Get(k.Key)) != printed {
				t.Fatalf("%s: %q → %s → %s", k.Key, s, printed, formatValue(back.Get(k.Key)))
			}
		}
	})
}

// FuzzLoadFile loads arbitrary file contents: Load must fail cleanly or
// return a configuration that validates.
func FuzzLoadFile(f *testing.F) {
	example, err := os.ReadFile("../phoneflow.example.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(example))
	f.Add("limits:\n  max_steps: abc\n")
	f.Add("adb:\n  allow: {a: 1}\n")
	f.Add("temporal: 5\n")
	f.Add("settle:\n  max: 1e300\n")
	f.Fuzz(func(t *testing.T, body string) {
		p := filepath.Join(t.TempDir(), "phoneflow.yaml")
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		c, src, err := Load(LoadOptions{File: p, Env: envMap(nil), SearchDirs: []string{}})
		if err != nil {
			return
		}
		if len(src) != len(keys) {
			t.Fatalf("sources cover %d of %d keys", len(src), len(keys))
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("Load returned no error but the config is invalid: %v", err)
		}
	})
}
