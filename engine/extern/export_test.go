package extern

import "encoding/json"

// ParseAnswer is parseAnswer, for the benchmarks of package extern_test.
func ParseAnswer(b []byte) error {
	_, err := parseAnswer(b)
	return err
}

// ParseAnswerStd reads an answer with encoding/json, the baseline of
// BenchmarkDecodeAnswers.
func ParseAnswerStd(b []byte) error {
	var a answer
	return json.Unmarshal(b, &a)
}
