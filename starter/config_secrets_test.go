package main

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/config"
)

// secretValue is a distinct value for each secret key; encryption.keys
// needs the id:base64 form to load.
func secretValue(key string) string {
	if key == "encryption.keys" {
		return "k1:" + base64.StdEncoding.EncodeToString([]byte("a-32-byte-key-for-the-leak-test!"))
	}
	switch key {
	case "adb.unlock_pin": // letters and digits only
		return "Zq81s3cr3tPin"
	case "sim.pin": // digits only
		return "90417733"
	}
	switch key {
	case "notify.url":
		return "https://hooks.example.com/phoneflow?token=s3cr3t-notify-url-Zq81"
	case "hooks.url":
		return "https://hooks.example.com/events?token=s3cr3t-hooks-url-Zq81"
	}
	return "s3cr3t-" + strings.NewReplacer(".", "-", "_", "-").Replace(key) + "-Zq81"
}

// TestConfigCmdHidesEverySecret sets every secret key, from the
// environment and from a config file, and checks `starter config` shows
// none of them (nor their base64 form) while saying where each came from.
func TestConfigCmdHidesEverySecret(t *testing.T) {
	var secrets []string
	for _, k := range config.Keys() {
		if config.IsSecret(k) {
			secrets = append(secrets, k)
		}
	}
	slices.Sort(secrets)
	if len(secrets) < 4 {
		t.Fatalf("only %d secret keys %v: the API keys, the codec token and the encryption keys should all be secret", len(secrets), secrets)
	}
	for _, fromFile := range []bool{false, true} {
		t.Run(fmt.Sprintf("file=%v", fromFile), func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			t.Setenv("HOME", t.TempDir())
			var yaml strings.Builder
			var open []string // the parent keys of the previous line
			for _, k := range secrets {
				if fromFile {
					// Nested YAML from the dotted key; keys are sorted, so
					// siblings follow each other.
					parts := strings.Split(k, ".")
					for i, p := range parts[:len(parts)-1] {
						if i < len(open) && open[i] == p {
							continue
						}
						open = append(open[:i], p)
						fmt.Fprintf(&yaml, "%s%s:\n", strings.Repeat("  ", i), p)
					}
					fmt.Fprintf(&yaml, "%s%s: %q\n", strings.Repeat("  ", len(parts)-1), parts[len(parts)-1], secretValue(k))
				} else {
					t.Setenv(config.EnvName(k), secretValue(k))
				}
			}
			if fromFile {
				if err := os.WriteFile(filepath.Join(dir, config.FileName), []byte(yaml.String()), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			out, err := runConfigCmd(t)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			for _, k := range secrets {
				v := secretValue(k)
				for _, form := range []string{v, base64.StdEncoding.EncodeToString([]byte(v))} {
					if strings.Contains(out, form) {
						t.Errorf("%s shows as %q:\n%s", k, form, out)
					}
				}
				if !strings.Contains(out, k+`: "****"`) {
					t.Errorf("%s is not shown masked:\n%s", k, out)
				}
			}
		})
	}
}
