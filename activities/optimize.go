package activities

import (
	"context"
	"strings"

	"go.temporal.io/sdk/temporal"
)

// Prompt memory bounds: the lessons block keeps the newest maxLessons
// lines and the whole prompt stays under maxPromptBytes.
const (
	lessonsHeader  = "Lessons from earlier runs:"
	maxLessons     = 8
	maxLessonBytes = 200
	maxPromptBytes = 2000
)

// OptimizePrompt records a finished todo in prompt memory: the task type's
// run count and success rate, and its prompt improved with the lessons the
// todo learned (failed actions, rejected taps, corrections). The change is
// deterministic: lessons are appended, de-duplicated, oldest dropped first.
func (a *Activities) OptimizePrompt(ctx context.Context, in OptimizeInput) error {
	if a.Prompts == nil || in.TaskType == "" {
		return nil
	}
	e, _, err := a.Prompts.Get(in.TaskType)
	if err != nil {
		return temporal.NewApplicationError("prompt memory: "+err.Error(), ErrTypeConfig)
	}
	prompt := ImprovePrompt(e.SystemPrompt, in.Lessons)
	if prompt == e.SystemPrompt {
		prompt = "" // unchanged: Record keeps the stored prompt
	}
	if err := a.Prompts.Record(in.TaskType, in.Success, prompt); err != nil {
		return temporal.NewApplicationError("prompt memory: "+err.Error(), ErrTypeConfig)
	}
	return nil
}

// ImprovePrompt returns prompt with lessons merged into its lessons block.
func ImprovePrompt(prompt string, lessons []string) string {
	base, old := splitLessons(prompt)
	all := old
	for _, l := range lessons {
		l = strings.Join(strings.Fields(l), " ")
		if l == "" {
			continue
		}
		l = clip(l, maxLessonBytes)
		if i := indexOf(all, l); i >= 0 {
			all = append(all[:i], all[i+1:]...) // seen again: move to newest
		}
		all = append(all, l)
	}
	if len(all) > maxLessons {
		all = all[len(all)-maxLessons:]
	}
	if len(all) == 0 {
		return base
	}
	for {
		var b strings.Builder
		if base != "" {
			b.WriteString(base)
			b.WriteString("\n\n")
		}
		b.WriteString(lessonsHeader)
		for _, l := range all {
			b.WriteString("\n- ")
			b.WriteString(l)
		}
		if b.Len() <= maxPromptBytes || len(all) == 1 {
			return clip(b.String(), maxPromptBytes)
		}
		all = all[1:]
	}
}

// splitLessons separates a prompt into its own text and its lessons.
func splitLessons(prompt string) (string, []string) {
	i := strings.Index(prompt, lessonsHeader)
	if i < 0 {
		return strings.TrimSpace(prompt), nil
	}
	var lessons []string
	for _, line := range strings.Split(prompt[i+len(lessonsHeader):], "\n") {
		if l, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok && l != "" {
			lessons = append(lessons, l)
		}
	}
	return strings.TrimSpace(prompt[:i]), lessons
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}
