import OrgSocialCLI

// Everything lives in OrgSocialCLI so that tests can run commands in process.
await CLI.main()
