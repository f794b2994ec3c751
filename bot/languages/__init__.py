"""Every text a player reads: the catalogues (``locales/*.po``), the translator, which language a
player gets, command-name localisation and the catalogue checker."""
