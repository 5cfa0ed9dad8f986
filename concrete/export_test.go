package concrete

// ResumerCounts is how many of r's runs started afresh, from a
// checkpoint, or were the previous run's.
func ResumerCounts(r *Resumer) (fresh, resumed, reused int) {
	return r.fresh, r.resumed, r.reused
}
