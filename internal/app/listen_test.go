package app

import "testing"

func TestLoopbackDefault(t *testing.T) {
	for in, want := range map[string]string{
		":9464":          "127.0.0.1:9464",
		":0":             "127.0.0.1:0",
		"127.0.0.1:9464": "127.0.0.1:9464",
		"0.0.0.0:9464":   "0.0.0.0:9464",
		"[::1]:9464":     "[::1]:9464",
		"":               "",
	} {
		if got := LoopbackDefault(in); got != want {
			t.Errorf("LoopbackDefault(%q) = %q, want %q", in, got, want)
		}
	}
}
