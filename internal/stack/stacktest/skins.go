package stacktest

import (
	"os"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// DefaultSkin is the look the phones of a stack wear when nothing names
// one: the default configuration's sim.skin (docs/phones.md#skins).
func DefaultSkin(t testing.TB) phonesim.Skin {
	t.Helper()
	s, err := phonesim.ParseSkin(config.Default().Sim.Skin)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// OtherSkins are the looks besides the default one, in phonesim.Skins'
// order: the looks a test that runs on the default look in `go test`
// runs a bounded form of itself on too.
func OtherSkins(t testing.TB) []phonesim.Skin {
	t.Helper()
	def := DefaultSkin(t)
	var out []phonesim.Skin
	for _, s := range phonesim.Skins {
		if s != def {
			out = append(out, s)
		}
	}
	return out
}

// SkinsFromEnv reads a comma-separated list of looks from the
// environment variable env: "all" is every skin, "other" every skin but
// the default one, unset or empty is def. An unknown name fails t.
func SkinsFromEnv(t testing.TB, env string, def []phonesim.Skin) []phonesim.Skin {
	t.Helper()
	v := strings.TrimSpace(os.Getenv(env))
	switch v {
	case "":
		return def
	case "all":
		return phonesim.Skins
	case "other":
		return OtherSkins(t)
	}
	var out []phonesim.Skin
	for _, name := range strings.Split(v, ",") {
		s, err := phonesim.ParseSkin(strings.TrimSpace(name))
		if err != nil {
			t.Fatalf("%s=%q: %v", env, v, err)
		}
		out = append(out, s)
	}
	return out
}

// SkinFromEnv is the one look env names, or the default look when it is
// unset: the look a drill's phones wear.
func SkinFromEnv(t testing.TB, env string) phonesim.Skin {
	t.Helper()
	v := strings.TrimSpace(os.Getenv(env))
	if v == "" {
		return DefaultSkin(t)
	}
	s, err := phonesim.ParseSkin(v)
	if err != nil {
		t.Fatalf("%s=%q: %v", env, v, err)
	}
	return s
}
