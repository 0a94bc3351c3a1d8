"""Who may use the table: accounts and roles, and the audit log nobody can edit."""
