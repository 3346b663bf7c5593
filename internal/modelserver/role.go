package modelserver

import "strings"

// roleName is the part a request is answered in.
type roleName string

// The two roles the server plays.
const (
	rolePlanner  roleName = "planner"
	roleExecutor roleName = "executor"
)

// roleFor picks the role for a request: "planner" in the model id means the
// planner, "executor" the executor; for other ids a request with an image
// part is an executor request, and one whose system prompt introduces the
// planner or replanner (or whose last message holds a JSON context with a
// "goal") is a planner request. Everything else goes to the executor.
func roleFor(model string, msgs []message) roleName {
	if isVerifier(msgs) {
		return roleVerifier
	}
	if isCorrector(msgs) {
		return roleCorrector
	}
	if isGuidanceWriter(msgs) {
		return roleGuidance
	}
	if isQuestionDesk(msgs) {
		return roleQuestion
	}
	if isReviewer(msgs) {
		return roleReview
	}
	if isChooser(msgs) {
		return roleChoose
	}
	m := strings.ToLower(model)
	switch {
	case strings.Contains(m, "planner"):
		return rolePlanner
	case strings.Contains(m, "executor"):
		return roleExecutor
	}
	for _, msg := range msgs {
		if msg.Images > 0 {
			return roleExecutor
		}
	}
	if len(msgs) > 0 {
		if first := strings.ToLower(msgs[0].Text); msgs[0].Role == "system" &&
			(strings.HasPrefix(first, "you are the planner") || strings.HasPrefix(first, "you are the replanner")) {
			return rolePlanner
		}
		if _, ok := jsonContext(msgs[len(msgs)-1].Text); ok && strings.Contains(msgs[len(msgs)-1].Text, `"goal"`) {
			return rolePlanner
		}
	}
	return roleExecutor
}
