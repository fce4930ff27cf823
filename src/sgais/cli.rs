pub fn evidence_cli() {}
