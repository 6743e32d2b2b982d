@tool
extends RefCounted
## Starting settings for particles.create, as data. Units are 3D (metres, +y up); the builder turns
## them into 2D pixels (y down) for 2D emitters. Ranges are [min, max]; color_ramp lists
## [offset, Color] stops. A request's own params override these.

const PRESETS := {
	"fire": {"amount": 40, "lifetime": 1.0, "direction": Vector3(0, 1, 0), "spread": 15.0,
		"initial_velocity": [1.0, 2.0], "gravity": Vector3(0, 1, 0), "scale": [0.5, 1.0],
		"emission_shape": "sphere", "emission_sphere_radius": 0.2,
		"color_ramp": [[0.0, Color(1, 0.9, 0.3)], [0.5, Color(1, 0.3, 0.05)], [1.0, Color(0.4, 0.05, 0, 0)]]},
	"smoke": {"amount": 30, "lifetime": 3.0, "direction": Vector3(0, 1, 0), "spread": 20.0,
		"initial_velocity": [0.5, 1.0], "gravity": Vector3(0, 0.2, 0), "scale": [1.0, 2.0],
		"emission_shape": "sphere", "emission_sphere_radius": 0.3,
		"color_ramp": [[0.0, Color(0.5, 0.5, 0.5, 0.6)], [1.0, Color(0.3, 0.3, 0.3, 0)]]},
	"sparks": {"amount": 60, "lifetime": 0.6, "explosiveness": 0.8, "direction": Vector3(0, 1, 0), "spread": 60.0,
		"initial_velocity": [3.0, 6.0], "gravity": Vector3(0, -9.8, 0), "scale": [0.1, 0.2],
		"color": Color(1, 0.8, 0.3), "emission_shape": "point"},
	"rain": {"amount": 200, "lifetime": 1.5, "direction": Vector3(0, -1, 0), "spread": 2.0,
		"initial_velocity": [8.0, 10.0], "gravity": Vector3(0, -9.8, 0), "scale": [0.05, 0.1],
		"color": Color(0.6, 0.7, 1, 0.8), "emission_shape": "box", "emission_box_extents": Vector3(10, 0.1, 10),
		"particle_flag_align_y": true},
	"snow": {"amount": 150, "lifetime": 6.0, "direction": Vector3(0, -1, 0), "spread": 10.0,
		"initial_velocity": [0.5, 1.0], "gravity": Vector3(0, -0.5, 0), "scale": [0.1, 0.3],
		"color": Color(1, 1, 1), "emission_shape": "box", "emission_box_extents": Vector3(10, 0.1, 10)},
	"explosion": {"amount": 80, "lifetime": 0.8, "one_shot": true, "explosiveness": 1.0, "spread": 180.0,
		"initial_velocity": [4.0, 8.0], "gravity": Vector3.ZERO, "damping": [2.0, 4.0], "scale": [0.5, 1.5],
		"emission_shape": "sphere", "emission_sphere_radius": 0.2,
		"color_ramp": [[0.0, Color(1, 1, 0.8)], [0.3, Color(1, 0.5, 0.1)], [1.0, Color(0.2, 0.1, 0.1, 0)]]},
	"magic": {"amount": 50, "lifetime": 1.5, "spread": 180.0, "initial_velocity": [0.5, 1.0],
		"gravity": Vector3.ZERO, "orbit_velocity": [0.2, 0.5], "scale": [0.2, 0.4], "hue_variation": [-0.1, 0.1],
		"emission_shape": "sphere_surface", "emission_sphere_radius": 0.5,
		"color_ramp": [[0.0, Color(0.4, 1, 1)], [1.0, Color(0.7, 0.2, 1, 0)]]},
	"dust": {"amount": 20, "lifetime": 2.0, "direction": Vector3(0, 1, 0), "spread": 90.0,
		"initial_velocity": [0.2, 0.5], "gravity": Vector3(0, -0.1, 0), "damping": [0.5, 1.0], "scale": [0.3, 0.6],
		"color": Color(0.6, 0.5, 0.4, 0.5), "emission_shape": "box", "emission_box_extents": Vector3(1, 0.1, 1)},
}
