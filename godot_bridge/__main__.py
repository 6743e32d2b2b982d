from godot_bridge.cli import main

raise SystemExit(main())
