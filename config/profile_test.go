package config

import (
	"strings"
	"testing"
)

// TestExecutorProfileDefaults checks what the model name selects when
// nothing else is set, and that every choice names its reason.
func TestExecutorProfileDefaults(t *testing.T) {
	cases := []struct {
		model, protocol, lang, format, verifier string
		pixels                                  int
		elements                                string
	}{
		{"autoglm-phone-9b", ProtocolAutoGLM, "zh", "png", VerifyByPlanner, FullSize, "false"},
		{"ZhipuAI/AutoGLM-Phone-9B", ProtocolAutoGLM, "zh", "png", VerifyByPlanner, FullSize, "false"},
		{"autoglm-phone", ProtocolAutoGLM, "zh", "png", VerifyByPlanner, FullSize, "false"},
		{"AutoGLM-Phone-9B-Multilingual", ProtocolAutoGLM, "en", "png", VerifyByPlanner, FullSize, "false"},
		{"parasail-auto-glm-9b-multilingual", ProtocolAutoGLM, "en", "png", VerifyByPlanner, FullSize, "false"},
		{"auto_glm_phone", ProtocolAutoGLM, "zh", "png", VerifyByPlanner, FullSize, "false"},
		{"gpt-4o", ProtocolPhoneflow, "en", "jpeg", VerifyByExecutor, DefaultMaxPixels, "true"},
		{"qwen2.5-vl-72b-instruct", ProtocolMobileUse, "en", "png", VerifyByPlanner, FullSize, "false"},
		{"UI-TARS-1.5-7B", ProtocolUITARS, "en", "png", VerifyByPlanner, FullSize, "false"},
		{"Qwen3-VL-235B-A22B-Instruct", ProtocolMobileUse, "en", "png", VerifyByPlanner, FullSize, "false"},
	}
	for _, c := range cases {
		t.Run(c.model, func(t *testing.T) {
			cfg, src, err := load(t, "", map[string]string{"MODEL_NAME": c.model})
			if err != nil {
				t.Fatal(err)
			}
			e := cfg.Executor
			if e.Protocol != c.protocol || e.Lang != c.lang || cfg.Screenshot.Format != c.format || cfg.Screenshot.MaxPixels != c.pixels ||
				e.UIElements != c.elements || cfg.Verifier.Use != c.verifier {
				t.Fatalf("protocol %s lang %s format %s pixels %d ui_elements %s verifier %s", e.Protocol, e.Lang,
					cfg.Screenshot.Format, cfg.Screenshot.MaxPixels, e.UIElements, cfg.Verifier.Use)
			}
			for _, k := range []string{"executor.protocol", "executor.lang", "screenshot.format", "verifier.use"} {
				if !strings.HasPrefix(src[k], "default for ") {
					t.Errorf("%s: source %q does not say why", k, src[k])
				}
			}
			if !strings.Contains(src["executor.protocol"], c.model) {
				t.Errorf("protocol source %q does not name the model", src["executor.protocol"])
			}
		})
	}
}

// TestExecutorProfileOverrides checks that what is set wins over the
// profile, and that an AutoGLM executor cannot be made the verifier.
func TestExecutorProfileOverrides(t *testing.T) {
	cfg, _, err := load(t, writeFile(t, `
executor:
  model: autoglm-phone-9b
  lang: en
  ui_elements: true
screenshot:
  format: jpeg
  max_pixels: 500000
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Executor.Lang != "en" || cfg.Executor.UIElements != "true" || cfg.Screenshot.Format != "jpeg" || cfg.Screenshot.MaxPixels != 500000 {
		t.Fatalf("set values lost: %+v %+v", cfg.Executor, cfg.Screenshot)
	}

	_, _, err = load(t, "", map[string]string{"MODEL_NAME": "autoglm-phone-9b", "PHONEFLOW_VERIFIER_USE": "executor"})
	if err == nil || !strings.Contains(err.Error(), "verifier.use") || !strings.Contains(err.Error(), "planner, endpoint or none") {
		t.Fatalf("an AutoGLM executor as verifier: %v", err)
	}

	cfg, src, err := load(t, "", map[string]string{"MODEL_NAME": "autoglm-phone-9b", "PHONEFLOW_VERIFIER_MODEL": "qwen-vl-max",
		"PLANNER_MODEL_API_KEY": "k"})
	if err != nil {
		t.Fatal(err)
	}
	m, ok := cfg.VerifierModel()
	if cfg.Verifier.Use != VerifyByEndpoint || !ok || m.Model != "qwen-vl-max" || m.BaseURL != cfg.Planner.BaseURL || m.APIKey != "k" ||
		!strings.Contains(src["verifier.use"], "verifier.model") {
		t.Fatalf("verifier %s %+v (%s)", cfg.Verifier.Use, m, src["verifier.use"])
	}

	_, _, err = load(t, "", map[string]string{"PHONEFLOW_VERIFIER_USE": "endpoint"})
	if err == nil || !strings.Contains(err.Error(), "verifier.model") {
		t.Fatalf("endpoint without a model: %v", err)
	}
	cfg, _, err = load(t, "", map[string]string{"PHONEFLOW_VERIFIER_USE": "none"})
	if _, ok := cfg.VerifierModel(); err != nil || ok {
		t.Fatalf("none: %v, model %v", err, ok)
	}
}

// TestCoordinatesByModelName checks the coordinate space each family's
// name selects.
func TestCoordinatesByModelName(t *testing.T) {
	for _, c := range []struct{ model, want string }{
		{"UI-TARS-1.5-7B", CoordsPixels},
		{"ui-tars-7b-sft", CoordsRelative},
		{"UI-TARS-72B-DPO", CoordsRelative},
		{"Qwen2.5-VL-7B-Instruct", CoordsPixels},
		{"Qwen3-VL-8B-Instruct", CoordsRelative},
		{"GUI-Owl-7B", CoordsPixels},
		{"MAI-UI-8B", CoordsRelative},
		{"autoglm-phone-9b", ""},
	} {
		e := Executor{Endpoint: Endpoint{Model: c.model}}
		if got := e.EffectiveCoordinates(); got != c.want {
			t.Errorf("%s: %q, want %q", c.model, got, c.want)
		}
	}
}
